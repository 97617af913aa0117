import assert from 'node:assert/strict';
import { test } from 'node:test';

import { HOSTILE_IDS } from '../../test-support/hostile-ids.js';
import { createOutbox, MAX_OUTBOX_CHARS } from './outbox.js';

/** localStorage's interface over a Map, with an optional size limit like the browser's quota. */
function memoryStorage(limit = Infinity): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem(key, value) {
      if (value.length > limit) throw new DOMException('quota', 'QuotaExceededError');
      items.set(key, value);
    },
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

const pending = { userId: 'a', chatId: 'c1', messageId: 'm1', body: '{"type":"source"}' };

test('what a page left unstored is there for the next page, until it is removed', () => {
  const storage = memoryStorage();
  storage.setItem('token', 'abc');
  createOutbox(storage).put(pending);
  const next = createOutbox(storage);
  assert.deepEqual(next.pending('a'), [pending]);
  next.remove('m1');
  assert.deepEqual(createOutbox(storage).pending('a'), []);
  assert.equal(storage.getItem('token'), 'abc');
});

test("an answer in Open WebUI's own shape stays one after a reload; a crafted flag is not taken", () => {
  const storage = memoryStorage();
  createOutbox(storage).put({ ...pending, openWebuiShape: true });
  assert.deepEqual(createOutbox(storage).pending('a'), [{ ...pending, openWebuiShape: true }]);
  storage.setItem('owui-citations:outbox:m1', JSON.stringify({ ...pending, openWebuiShape: 'yes', at: Date.now() }));
  assert.deepEqual(createOutbox(storage).pending('a'), [pending]);
});

test("what one user left is handed only to that user: another user's page neither gets it nor drops it", () => {
  const storage = memoryStorage();
  createOutbox(storage).put(pending);
  createOutbox(storage).put({ ...pending, userId: 'b', messageId: 'm2' });
  assert.deepEqual(createOutbox(storage).pending('b'), [{ ...pending, userId: 'b', messageId: 'm2' }]);
  assert.deepEqual(createOutbox(storage).pending('a'), [pending]);
});

test('an entry written by anyone but the outbox, with ids that are no ids or no user, is dropped', () => {
  const storage = memoryStorage();
  const plant = (entry: { messageId?: string; chatId?: string; userId?: string }) =>
    storage.setItem(
      `owui-citations:outbox:${entry.messageId ?? 'm1'}`,
      JSON.stringify({ ...pending, at: 0, ...entry }),
    );
  for (const planted of [
    ...HOSTILE_IDS.flatMap((id) => [{ messageId: id }, { chatId: id }, { userId: id }]),
    { userId: undefined }, // left by a version that did not record the user
  ]) {
    plant(planted);
    assert.deepEqual(createOutbox(storage, () => 1).pending('a'), [], JSON.stringify(planted).slice(0, 60));
    assert.equal(storage.length, 0);
  }
  storage.setItem('owui-citations:outbox:m9', JSON.stringify({ ...pending, at: 0 })); // under another answer's key
  assert.deepEqual(createOutbox(storage, () => 1).pending('a'), []);
});

test('entries a week old or unreadable are dropped, not stored', () => {
  const storage = memoryStorage();
  let now = 0;
  createOutbox(storage, () => now).put(pending);
  storage.setItem('owui-citations:outbox:m2', '{not json');
  storage.setItem('owui-citations:outbox:m3', JSON.stringify({ chatId: 1, at: 0 }));
  now = 8 * 24 * 3600_000;
  assert.deepEqual(createOutbox(storage, () => now).pending('a'), []);
  assert.equal(storage.length, 0);
});

test('a body too large for the storage is not kept, and nothing throws', () => {
  const outbox = createOutbox(memoryStorage(100));
  outbox.put({ ...pending, body: 'x'.repeat(1000) });
  assert.deepEqual(outbox.pending('a'), []);
});

test("the outbox takes at most its share of the storage: what does not fit is not kept, the app's keys kept", () => {
  const storage = memoryStorage();
  storage.setItem('token', 'abc');
  const outbox = createOutbox(storage);
  const third = 'x'.repeat(MAX_OUTBOX_CHARS / 3);
  for (const messageId of ['m1', 'm2', 'm3', 'm4']) outbox.put({ ...pending, messageId, body: third });
  assert.deepEqual(
    outbox.pending('a').map((p) => p.messageId),
    ['m1', 'm2'],
  );
  outbox.put({ ...pending, messageId: 'm2', body: 'small' }); // an answer written again replaces itself
  outbox.put({ ...pending, messageId: 'huge', body: 'x'.repeat(MAX_OUTBOX_CHARS) });
  assert.deepEqual(
    outbox.pending('a').map((p) => [p.messageId, p.body.length]),
    [
      ['m1', third.length],
      ['m2', 5],
    ],
  );
  assert.equal(storage.getItem('token'), 'abc');
});
