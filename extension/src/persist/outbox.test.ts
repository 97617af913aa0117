import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createFakeClock, createFakeOpenWebui, tokenFor } from '../../test-support/fake-openwebui.js';
import { HOSTILE_IDS } from '../../test-support/hostile-ids.js';
import { extractCitations } from '../core/index.js';
import { type DeliveryDeps, deliver } from './delivery.js';
import { createOpenWebuiApi } from './openwebui.js';
import { createOutbox, MAX_OUTBOX_CHARS, type Pending } from './outbox.js';
import { sourceEventBody, toNativeSource } from './shape.js';

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

const [citation] = extractCitations({
  choices: [{ message: { role: 'assistant', content: 'Stars [1].' } }],
  citations: ['https://example.com/stars'],
}).citations;
/** A source event as the extension stores it, its one source's snippet of any length (no cap). */
const bodyWith = (snippet: string): string =>
  JSON.stringify({ type: 'source', data: toNativeSource([{ ...citation!, snippet }]) });
const pending: Pending = { userId: 'a', chatId: 'c1', messageId: 'm1', body: sourceEventBody([citation!]) };

test('what a page left unstored is there for the next page, until it is removed', () => {
  const storage = memoryStorage();
  storage.setItem('token', 'abc');
  createOutbox(storage).put(pending);
  const next = createOutbox(storage);
  assert.deepEqual(next.pending('a'), [pending]);
  next.remove('a', 'm1');
  assert.deepEqual(createOutbox(storage).pending('a'), []);
  assert.equal(storage.getItem('token'), 'abc');
});

test("an answer in Open WebUI's own shape stays one after a reload; a crafted flag is not taken", () => {
  const storage = memoryStorage();
  createOutbox(storage).put({ ...pending, openWebuiShape: true });
  assert.deepEqual(createOutbox(storage).pending('a'), [{ ...pending, openWebuiShape: true }]);
  storage.setItem('owui-citations:outbox:a:m1', JSON.stringify({ ...pending, openWebuiShape: 'yes', at: Date.now() }));
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
  storage.setItem(
    'owui-citations:outbox:a:m4',
    JSON.stringify({ ...pending, messageId: 'm4', at: 0, pad: 'x'.repeat(MAX_OUTBOX_CHARS) }),
  );
  now = 8 * 24 * 3600_000;
  assert.deepEqual(createOutbox(storage, () => now).pending('a'), []);
  assert.equal(storage.length, 0);
});

test('a body too large for the storage is not kept, and nothing throws', () => {
  const outbox = createOutbox(memoryStorage(pending.body.length));
  outbox.put(pending);
  assert.deepEqual(outbox.pending('a'), []);
});

test("the outbox takes at most its share of the storage: what does not fit is not kept, the app's keys kept", () => {
  const storage = memoryStorage();
  storage.setItem('token', 'abc');
  const outbox = createOutbox(storage);
  const third = bodyWith('x'.repeat(MAX_OUTBOX_CHARS / 6)); // a snippet is in the body twice
  for (const messageId of ['m1', 'm2', 'm3', 'm4']) outbox.put({ ...pending, messageId, body: third });
  assert.deepEqual(
    outbox.pending('a').map((p) => p.messageId),
    ['m1', 'm2'],
  );
  outbox.put({ ...pending, messageId: 'm2' }); // an answer written again replaces itself
  outbox.put({ ...pending, messageId: 'huge', body: bodyWith('x'.repeat(MAX_OUTBOX_CHARS)) });
  assert.deepEqual(
    outbox.pending('a').map((p) => [p.messageId, p.body]),
    [
      ['m1', third],
      ['m2', pending.body],
    ],
  );
  assert.equal(storage.getItem('token'), 'abc');
});

test('two users of one browser waiting on one message id (a cloned chat): both kept, each removed alone', () => {
  const storage = memoryStorage();
  const theirs = { ...pending, userId: 'b', chatId: 'c2' };
  createOutbox(storage).put(pending);
  createOutbox(storage).put(theirs);
  assert.deepEqual(createOutbox(storage).pending('a'), [pending]);
  assert.deepEqual(createOutbox(storage).pending('b'), [theirs]);
  createOutbox(storage).remove('b', 'm1');
  assert.deepEqual(createOutbox(storage).pending('b'), []);
  assert.deepEqual(createOutbox(storage).pending('a'), [pending]);
});

/** Planted as the previous version kept an entry: under its message id alone. */
const leftByEarlierVersion = (storage: Storage, entry: Pending, at = Date.now()): void =>
  storage.setItem(`owui-citations:outbox:${entry.messageId}`, JSON.stringify({ ...entry, at }));

test('an entry the previous version left (keyed by message alone) is handed to its user, and removed only by them', () => {
  const storage = memoryStorage();
  leftByEarlierVersion(storage, pending);
  leftByEarlierVersion(storage, { ...pending, userId: 'b', messageId: 'm2' });
  createOutbox(storage).put(pending); // and left again by this version: stored once
  assert.deepEqual(createOutbox(storage).pending('a'), [pending]);
  assert.deepEqual(createOutbox(storage).pending('b'), [{ ...pending, userId: 'b', messageId: 'm2' }]);
  createOutbox(storage).remove('b', 'm1'); // not b's
  assert.deepEqual(createOutbox(storage).pending('a'), [pending]);
  createOutbox(storage).remove('a', 'm1');
  assert.deepEqual(createOutbox(storage).pending('a'), []);
  assert.equal(storage.length, 1); // b's
});

test("each user's entry for one message id is stored into that user's chat, with that user's session", async () => {
  const clock = createFakeClock();
  const owui = createFakeOpenWebui(clock);
  const answer = () => ({ q1: { content: 'Which?' }, m1: { content: 'The answer [1].' } });
  owui.chats.set('c1', { messages: answer(), currentId: 'm1', userId: 'a' });
  owui.chats.set('c2', { messages: answer(), currentId: 'm1', userId: 'b' }); // b's clone of a's chat
  const storage = memoryStorage();
  createOutbox(storage).put({ ...pending, userId: 'b', chatId: 'c2' });
  leftByEarlierVersion(storage, pending); // a's, left before the upgrade
  const deliverAll = async (userId: string) => {
    owui.token = tokenFor(userId); // signed in as `userId`
    const never = () => new Promise<void>(() => {});
    const deps: DeliveryDeps = {
      api: createOpenWebuiApi(owui.fetch, () => owui.token, userId),
      settled: () => clock.sleep(1000),
      sleep: clock.sleep,
      signedIn: never,
      online: never,
      random: () => 0.5,
    };
    const outbox = createOutbox(storage);
    for (const left of outbox.pending(userId)) {
      assert.equal(await clock.run(deliver(left, deps, true)), 'stored');
      outbox.remove(left.userId, left.messageId);
    }
  };
  await deliverAll('b');
  assert.deepEqual([owui.sourceEvents('c1', 'm1'), owui.sourceEvents('c2', 'm1')], [0, 1]);
  await deliverAll('a');
  assert.deepEqual([owui.sourceEvents('c1', 'm1'), owui.sourceEvents('c2', 'm1')], [1, 1]);
  assert.equal(storage.length, 0);
});

test('a body that is not a source event (a `message` or `replace` rewrites the answer) is never kept nor handed on', (t) => {
  const warn = t.mock.method(console, 'warn', () => {});
  const storage = memoryStorage();
  const ours = JSON.parse(pending.body) as { type: string; data: Record<string, unknown> };
  const [metadata] = ours.data.metadata as Array<Record<string, unknown>>;
  const bodies = [
    { type: 'message', data: { content: 'Rewritten.' } },
    { type: 'replace', data: { content: 'Rewritten.' } },
    { type: 'chat:message:delta', data: { content: 'Rewritten.' } },
    { ...ours, type: 'citation' },
    { ...ours, also: { type: 'replace' } },
    { ...ours, data: { ...ours.data, source: { id: 'web_search', name: 'Search' } } }, // as if Open WebUI's own
    { ...ours, data: { ...ours.data, metadata: [{ ...metadata, url: 'javascript:alert(1)' }] } },
    { ...ours, data: { ...ours.data, metadata: [{ source: 'x' }] } },
    { ...ours, data: { ...ours.data, document: [] } },
    { ...ours, data: { ...ours.data, content: 'Rewritten.' } },
  ].map((event) => JSON.stringify(event));
  for (const body of [...bodies, 'not json', '"text"', 'null', '[]']) {
    createOutbox(storage).put({ ...pending, body });
    assert.equal(storage.length, 0, body);
    leftByEarlierVersion(storage, { ...pending, body });
    storage.setItem(
      'owui-citations:outbox:a:m2',
      JSON.stringify({ ...pending, messageId: 'm2', body, at: Date.now() }),
    );
    assert.deepEqual(createOutbox(storage).pending('a'), [], body);
    assert.equal(storage.length, 0, body);
  }
  assert.equal(warn.mock.callCount(), 1);
});
