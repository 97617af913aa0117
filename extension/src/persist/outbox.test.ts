import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createOutbox } from './outbox.js';

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
  assert.deepEqual(next.left(), [pending]);
  next.remove('m1');
  assert.deepEqual(createOutbox(storage).left(), []);
  assert.equal(storage.getItem('token'), 'abc');
});

test('entries a week old or unreadable are dropped, not stored', () => {
  const storage = memoryStorage();
  let now = 0;
  createOutbox(storage, () => now).put(pending);
  storage.setItem('owui-citations:outbox:m2', '{not json');
  storage.setItem('owui-citations:outbox:m3', JSON.stringify({ chatId: 1, at: 0 }));
  now = 8 * 24 * 3600_000;
  assert.deepEqual(createOutbox(storage, () => now).left(), []);
  assert.equal(storage.length, 0);
});

test('a body too large for the storage is not kept, and nothing throws', () => {
  const outbox = createOutbox(memoryStorage(100));
  outbox.put({ ...pending, body: 'x'.repeat(1000) });
  assert.deepEqual(outbox.left(), []);
});
