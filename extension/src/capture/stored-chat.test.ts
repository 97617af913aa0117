import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';

import fc from 'fast-check';

import { asJson, hostileValue } from '../../test-support/hostile.js';
import { type LongChat, longChat } from '../../test-support/long-chat.js';
import { MAX_CITATIONS } from '../core/limits.js';
import { createHub, type Hub } from './hub.js';
import { watchSources } from './source-warnings.js';
import { readStoredChat, type StoredChat } from './stored-chat.js';

/** A fake scheduler (idle.ts `soon` posts to it) and a fake clock: each answer read costs 1 ms. */
function fakeTime(t: TestContext): { tasks: Array<() => void>; tick(): void; drain(): void } {
  let now = 0;
  t.mock.method(performance, 'now', () => now);
  const tasks: Array<() => void> = [];
  const global = globalThis as { scheduler?: unknown };
  global.scheduler = { postTask: (callback: () => void) => void tasks.push(callback) };
  t.after(() => delete global.scheduler);
  const tick = () => {
    now += 1;
  };
  const drain = () => {
    for (let task = tasks.shift(); task; task = tasks.shift()) task();
  };
  return { tasks, tick, drain };
}

/** A hub as the page has it (its warnings wired as main.ts wires them), each answer read ticking the clock. */
function pageHub(tick = () => {}): Hub {
  const hub = createHub(() => 'en');
  watchSources(hub, (warn) => warn);
  const setStored = hub.setStored;
  hub.setStored = (...args) => {
    tick();
    setStored(...args);
  };
  return hub;
}

const answerIds = (chat: LongChat): string[] =>
  Object.values(chat.chat.history.messages)
    .filter((m) => m.role === 'assistant')
    .map((m) => m.id as string);

/** What the page shows of each answer: its sources, text, and whether they could be read. */
/** What each answer's view holds, its citations read (not how it reads them: its functions). */
const shown = (hub: Hub, ids: readonly string[]) =>
  ids.map((id) => {
    const view = hub.view(id);
    return view && Object.fromEntries(Object.entries({ ...view }).filter(([, value]) => typeof value !== 'function'));
  });

/** The chat read the way it was before steps: every answer at once. */
function readWhole(hub: Hub, chat: StoredChat): void {
  for (const [id, message] of Object.entries(chat.chat?.history?.messages ?? {}))
    if (message?.role === 'assistant') hub.setStored(id, chat.id!, message);
}

test('a long stored chat is read in slices of half a frame, the page given its turn between them', (t) => {
  const time = fakeTime(t);
  const chat = longChat(50, 2);
  const hub = pageHub(time.tick);
  readStoredChat(hub, chat);
  const known = () => hub.ids().length;
  assert.equal(known(), 0, 'read in the task that parsed the chat');
  let tasks = 0;
  while (time.tasks.length) {
    const before = known();
    time.tasks.shift()!();
    assert.ok(known() - before <= 9, `${known() - before} answers in task ${++tasks}`);
  }
  assert.ok(tasks >= 6, `${tasks} tasks`);
  assert.equal(known(), 50);
  const whole = pageHub();
  readWhole(whole, chat);
  assert.deepEqual(shown(hub, answerIds(chat)), shown(whole, answerIds(chat)));
});

test("opening a chat parses no answer's sources; drawing one parses its own, once", (t) => {
  const time = fakeTime(t);
  const chat = longChat(30, 3);
  const reads = new Map<string, number>();
  for (const id of answerIds(chat)) {
    const message = chat.chat.history.messages[id]!;
    const [source] = message.sources as Array<{ document: unknown }>;
    const document = source!.document;
    // Every reading of the stored sources looks at their documents.
    Object.defineProperty(source, 'document', {
      get: () => {
        reads.set(id, (reads.get(id) ?? 0) + 1);
        return document;
      },
    });
  }
  const hub = pageHub();
  readStoredChat(hub, chat);
  time.drain();
  assert.equal(hub.ids().length, 30);
  assert.deepEqual([...reads.keys()], [], 'read with the chat');
  const [first, drawn] = answerIds(chat).slice(-2);
  const view = hub.view(drawn!)!;
  assert.equal(view.citations.length, 3);
  const once = reads.get(drawn!);
  assert.ok(once! > 0);
  // Drawn again (its pass reads the view at every change), asked whether it is readable, exported.
  void [hub.view(drawn!)!.citations, view.unreadable, view.interrupted, hub.citations(drawn!)];
  assert.deepEqual([...reads], [[drawn, once]]);
  assert.equal(hub.view(first!)!.citations.length, 3);
  assert.deepEqual([...reads.keys()], [drawn, first]);
});

test('malformed or oversized stored sources touch only their own answer, warned about when it is drawn', (t) => {
  const time = fakeTime(t);
  const chat = longChat(3, 2);
  const [oversized, malformed, good] = answerIds(chat);
  const messages = chat.chat.history.messages;
  const urls = Array.from({ length: MAX_CITATIONS + 5 }, (_, i) => ({ source: `https://s.example/${i}` }));
  messages[oversized!]!.sources = [{ source: {}, document: urls.map(() => 'd'), metadata: urls }];
  messages[malformed!]!.sources = [{ source: {}, document: 'not a list', metadata: 5 }, 'x', null];
  // Not answers, or not shaped as one: skipped.
  Object.assign(messages, { 'not an id': { role: 'assistant', sources: [] }, [`${good}0`]: null, x: 42 });
  const warnings: string[] = [];
  t.mock.method(console, 'warn', (line: string) => void warnings.push(line));
  const hub = pageHub();
  readStoredChat(hub, chat as StoredChat);
  time.drain();
  assert.deepEqual(hub.ids(), [oversized, malformed, good]);
  assert.deepEqual(warnings, [], 'warned when the chat was read');
  assert.equal(hub.view(good!)!.citations.length, 2);
  assert.deepEqual(hub.view(malformed!)!.citations, []);
  assert.deepEqual(warnings, []);
  assert.equal(hub.view(oversized!)!.citations.length, MAX_CITATIONS);
  assert.deepEqual(warnings, [
    `[owui-citations] 5 open-webui sources of message ${oversized} beyond the first that are shown were left out.`,
  ]);
});

test('read in steps or whole, a chat of any stored sources shows the same sources', (t) => {
  const time = fakeTime(t);
  const template = longChat(1, 3);
  const [answerId] = answerIds(template);
  const stored = template.chat.history.messages[answerId!]!.sources;
  const chats = fc.array(fc.oneof(fc.constant(stored), hostileValue.map(asJson)), { minLength: 1, maxLength: 12 });
  fc.assert(
    fc.property(chats, (sources) => {
      const chat = longChat(sources.length, 1);
      answerIds(chat).forEach((id, k) => {
        chat.chat.history.messages[id]!.sources = sources[k];
      });
      const stepped = pageHub(time.tick);
      readStoredChat(stepped, chat);
      time.drain();
      const whole = pageHub();
      readWhole(whole, chat);
      assert.deepEqual(shown(stepped, answerIds(chat)), shown(whole, answerIds(chat)));
    }),
    { numRuns: Number(process.env.FC_RUNS ?? 200) },
  );
});
