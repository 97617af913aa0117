import assert from 'node:assert/strict';
import { test } from 'node:test';

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

const pending = { chatId: 'c1', messageId: 'm1', body: '{"type":"source"}' };

test('what a page left unstored is there for the next page, until it is removed', () => {
  const storage = memoryStorage();
  storage.setItem('token', 'abc');
  createOutbox(storage).put(pending);
  const next = createOutbox(storage);
  assert.deepEqual(next.pending(), [pending]);
  next.remove('m1');
  assert.deepEqual(createOutbox(storage).pending(), []);
  assert.equal(storage.getItem('token'), 'abc');
});

test('entries a week old or unreadable are dropped, not stored', () => {
  const storage = memoryStorage();
  let now = 0;
  createOutbox(storage, () => now).put(pending);
  storage.setItem('owui-citations:outbox:m2', '{not json');
  storage.setItem('owui-citations:outbox:m3', JSON.stringify({ chatId: 1, at: 0 }));
  now = 8 * 24 * 3600_000;
  assert.deepEqual(createOutbox(storage, () => now).pending(), []);
  assert.equal(storage.length, 0);
});

test('a body too large for the storage is not kept, and nothing throws', () => {
  const outbox = createOutbox(memoryStorage(100));
  outbox.put({ ...pending, body: 'x'.repeat(1000) });
  assert.deepEqual(outbox.pending(), []);
});

test("the outbox takes at most its share of the storage: what does not fit is not kept, the app's keys kept", () => {
  const storage = memoryStorage();
  storage.setItem('token', 'abc');
  const outbox = createOutbox(storage);
  const third = 'x'.repeat(MAX_OUTBOX_CHARS / 3);
  for (const messageId of ['m1', 'm2', 'm3', 'm4']) outbox.put({ ...pending, messageId, body: third });
  assert.deepEqual(
    outbox.pending().map((p) => p.messageId),
    ['m1', 'm2'],
  );
  outbox.put({ ...pending, messageId: 'm2', body: 'small' }); // an answer written again replaces itself
  outbox.put({ ...pending, messageId: 'huge', body: 'x'.repeat(MAX_OUTBOX_CHARS) });
  assert.deepEqual(
    outbox.pending().map((p) => [p.messageId, p.body.length]),
    [
      ['m1', third.length],
      ['m2', 5],
    ],
  );
  assert.equal(storage.getItem('token'), 'abc');
});
