import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  createFakeClock,
  createFakeOpenWebui,
  type FakeClock,
  type FakeOpenWebui,
  tokenFor,
  USER,
} from '../../test-support/fake-openwebui.js';
import { HOSTILE_IDS } from '../../test-support/hostile-ids.js';
import { type DeliveryDeps, deliver } from './delivery.js';
import { createOpenWebuiApi, failureKind, HttpError, NetworkError, UnreadableResponse } from './openwebui.js';

const CHAT = 'c1';
const pending = {
  userId: USER,
  chatId: CHAT,
  messageId: 'a1',
  body: JSON.stringify({ type: 'source', data: { metadata: [{ owc: { title: 'A source' } }] } }),
};

/** A chat whose answer Open WebUI has saved (or not yet), a clock, and what persist needs. */
function setUp(saved = true) {
  const clock = createFakeClock();
  const owui = createFakeOpenWebui(clock);
  owui.chats.set(CHAT, {
    messages: { q1: { content: 'Which?' }, a1: { content: saved ? 'The answer [1].' : '' } },
    currentId: 'a1',
  });
  const signIns: Array<() => void> = [];
  const onlines: Array<() => void> = [];
  const deps: DeliveryDeps = {
    api: createOpenWebuiApi(owui.fetch, () => tokenFor(USER), USER),
    settled: () => clock.sleep(1000),
    sleep: clock.sleep,
    signedIn: () => new Promise((resolve) => signIns.push(resolve)),
    online: () => new Promise((resolve) => onlines.push(resolve)),
    random: () => 0.5,
  };
  const signIn = () => signIns.splice(0).forEach((resolve) => resolve());
  const backOnline = () => onlines.splice(0).forEach((resolve) => resolve());
  return { clock, owui, deps, signIn, backOnline };
}

const posts = (owui: FakeOpenWebui) =>
  owui.requests.filter((r) => r.what === `POST /api/v1/chats/${CHAT}/messages/a1/event`);

/** Faults by time: `until` ms on the clock, then the next faults one request each. */
function faultsOver(
  clock: FakeClock,
  owui: FakeOpenWebui,
  until: number,
  first: 'network',
  then: Array<'html-502' | 'html-200'> = [],
): void {
  const queue = [...then];
  owui.fault = () => (clock.now() < until ? first : queue.shift());
}

/** The first post of the event meets `fault`; every other request goes through. */
function firstEventPostMeets(owui: FakeOpenWebui, fault: 'lost' | 'event-false'): void {
  let met = false;
  owui.fault = (method, path) => {
    if (method !== 'POST' || !path.endsWith('/event') || met) return undefined;
    met = true;
    return fault;
  };
}

test('a saved answer gets its sources stored, once', async () => {
  const { clock, owui, deps } = setUp();
  assert.equal(await clock.run(deliver(pending, deps, true)), 'stored');
  assert.equal(owui.sourceEvents(CHAT, 'a1'), 1);
  assert.equal(posts(owui).length, 1);
});

test('an answer Open WebUI saves a few seconds later is stored once it is saved', async () => {
  const { clock, owui, deps } = setUp(false);
  clock.at(4000, () => (owui.chats.get(CHAT)!.messages.a1!.content = 'The answer [1].'));
  assert.equal(await clock.run(deliver(pending, deps, true)), 'stored');
  assert.equal(owui.sourceEvents(CHAT, 'a1'), 1);
  assert.ok(posts(owui)[0]!.at >= 4000);
});

test('network errors for 20 s, a 502 HTML page, an HTML page with a 200: retried, waits growing, stored', async () => {
  const { clock, owui, deps } = setUp();
  faultsOver(clock, owui, 20_000, 'network', ['html-502', 'html-200']);
  assert.equal(await clock.run(deliver(pending, deps, true)), 'stored');
  assert.equal(owui.sourceEvents(CHAT, 'a1'), 1);
  const during = owui.requests.filter((r) => r.at < 20_000);
  assert.ok(during.length >= 4 && during.length <= 8, `${during.length} requests in 20 s`);
  const gaps = during.slice(1).map((r, i) => r.at - during[i]!.at);
  assert.ok(
    gaps.every((gap, i) => i === 0 || gap >= gaps[i - 1]!),
    `waits grow: ${gaps}`,
  );
  assert.ok(Math.max(...gaps) <= 10_000, `never more than 10 s apart: ${gaps}`);
});

test('a post whose answer is lost on the way back is not posted again: the chat is read first', async () => {
  const { clock, owui, deps } = setUp();
  firstEventPostMeets(owui, 'lost');
  assert.equal(await clock.run(deliver(pending, deps, true)), 'stored');
  assert.equal(owui.sourceEvents(CHAT, 'a1'), 1);
});

test('Open WebUI answering that it could not hand the event on: posted again later, stored once', async () => {
  const { clock, owui, deps } = setUp();
  firstEventPostMeets(owui, 'event-false');
  assert.equal(await clock.run(deliver(pending, deps, true)), 'stored');
  assert.equal(owui.sourceEvents(CHAT, 'a1'), 1);
  assert.equal(posts(owui).length, 2);
});

test('offline: tried again as soon as the browser is back online, not after the next wait', async () => {
  const { clock, owui, deps, backOnline } = setUp();
  let offline = true;
  owui.fault = () => (offline ? 'network' : undefined);
  clock.at(3000, () => {
    offline = false;
    backOnline();
  });
  assert.equal(await clock.run(deliver(pending, deps, true)), 'stored');
  assert.equal(owui.sourceEvents(CHAT, 'a1'), 1);
  assert.equal(posts(owui)[0]!.at, 3000);
});

test('signed out (a 401, the session gone): nothing is tried until the user signs in again, then stored', async () => {
  const { clock, owui, deps, signIn } = setUp();
  owui.token = 'expired';
  clock.at(120_000, () => {
    owui.token = tokenFor(USER);
    signIn();
  });
  assert.equal(await clock.run(deliver(pending, deps, true)), 'stored');
  assert.equal(owui.sourceEvents(CHAT, 'a1'), 1);
  assert.ok(owui.requests.filter((r) => r.at < 120_000).length <= 2, 'a read and a look at the session, then nothing');
});

test('a 401 while signed in (the chat was deleted): the answer is given up, nothing posted', async () => {
  const { clock, owui, deps } = setUp();
  owui.chats.delete(CHAT);
  assert.equal(await clock.run(deliver(pending, deps, true)), 'gone');
  assert.equal(posts(owui).length, 0);
});

test("another person signed in in this browser: nothing of the user's is sent with their session; stored when the user is back", async () => {
  const { clock, owui, deps, signIn } = setUp();
  let session = tokenFor('u2');
  owui.token = session; // Open WebUI takes the other person's session
  deps.api = createOpenWebuiApi(owui.fetch, () => session, USER);
  clock.at(120_000, () => {
    session = owui.token = tokenFor(USER);
    signIn();
  });
  assert.equal(await clock.run(deliver(pending, deps, true)), 'stored');
  assert.deepEqual(
    owui.requests.filter((r) => r.at < 120_000),
    [],
  );
  assert.equal(owui.sourceEvents(CHAT, 'a1'), 1);
});

test("a chat that is not the user's (an admin reading another user's chat): nothing is written into it", async () => {
  const { clock, owui, deps } = setUp();
  owui.chats.get(CHAT)!.userId = 'someone-else';
  assert.equal(await clock.run(deliver(pending, deps, true)), 'gone');
  assert.equal(owui.sourceEvents(CHAT, 'a1'), 0);
  assert.deepEqual(
    owui.requests.map((r) => r.what),
    [`GET /api/v1/chats/${CHAT}`],
  );
});

test("another user's chat that says in its own JSON it is shared to continue: nothing is written into it", async () => {
  const { clock, owui, deps } = setUp();
  const chat = owui.chats.get(CHAT)!;
  chat.userId = 'someone-else';
  chat.shareMode = 'continue'; // written by that user: up to 0.11 Open WebUI hands it on as it is
  assert.equal(await clock.run(deliver(pending, deps, true)), 'gone');
  assert.equal(owui.sourceEvents(CHAT, 'a1'), 0);
});

test('ids from a crafted chat never become a path: no request but to the chat and the session', async () => {
  for (const id of HOSTILE_IDS) {
    const { clock, owui, deps } = setUp();
    const chat = owui.chats.get(CHAT)!;
    chat.messages[id] = { content: 'The answer [1].' }; // the crafted key, as the chat holds it
    assert.equal(await clock.run(deliver({ ...pending, messageId: id }, deps, true)), 'gone', id);
    assert.equal(await clock.run(deliver({ ...pending, chatId: id }, deps, true)), 'gone', id);
    // The chat's newest message, after ours, is a crafted key: the chat is not put back there.
    chat.messages = { q1: chat.messages.q1!, a1: chat.messages.a1!, [id]: { content: 'x' } };
    assert.equal(await clock.run(deliver(pending, deps, true)), 'stored', id);
    const outside = owui.requests.filter(
      (r) => r.what !== `GET /api/v1/chats/${CHAT}` && r.what !== `POST /api/v1/chats/${CHAT}/messages/a1/event`,
    );
    assert.deepEqual(outside, [], id.slice(0, 40));
  }
});

/** After our first post: the page writes its copy without our source back (erasing it), and,
 * when `restoreAfter` is given, writes again from a copy that holds it, putting it back. */
function writeBacks(clock: FakeClock, owui: FakeOpenWebui, deps: DeliveryDeps, restoreAfter?: number): void {
  const fetch = owui.fetch;
  let posted = false;
  owui.fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method === 'POST' && !posted) {
      posted = true;
      const message = owui.chats.get(CHAT)!.messages.a1!;
      const ours = message.sources;
      clock.at(clock.now() + 200, () => (message.sources = []));
      if (restoreAfter !== undefined) clock.at(clock.now() + restoreAfter, () => (message.sources = ours));
    }
    return response;
  };
  deps.api = createOpenWebuiApi(owui.fetch, () => tokenFor(USER), USER);
}

test('a write-back that erases the stored source: stored again once the page is quiet, and only once', async () => {
  const { clock, owui, deps } = setUp();
  writeBacks(clock, owui, deps);
  assert.equal(await clock.run(deliver(pending, deps, true)), 'stored');
  assert.equal(owui.sourceEvents(CHAT, 'a1'), 1);
  assert.equal(posts(owui).length, 2);
});

test("a write-back that erases it, and the page's next write that puts it back: not posted twice", async () => {
  const { clock, owui, deps } = setUp();
  writeBacks(clock, owui, deps, 1500);
  assert.equal(await clock.run(deliver(pending, deps, true)), 'stored');
  assert.equal(owui.sourceEvents(CHAT, 'a1'), 1);
  assert.equal(posts(owui).length, 1);
});

test('a source erased after every post is posted three times, then given up: no endless posting', async () => {
  const { clock, owui, deps } = setUp();
  const fetch = owui.fetch;
  owui.fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method === 'POST') clock.at(clock.now() + 200, () => (owui.chats.get(CHAT)!.messages.a1!.sources = []));
    return response;
  };
  deps.api = createOpenWebuiApi(owui.fetch, () => tokenFor(USER), USER);
  assert.equal(await clock.run(deliver(pending, deps, true)), 'posted');
  assert.equal(posts(owui).length, 3);
});

test('a second tab, or the next page, finds the sources stored and posts nothing', async () => {
  const { clock, owui, deps } = setUp();
  await clock.run(deliver(pending, deps, true));
  const stored: unknown[] = [];
  const before = posts(owui).length;
  assert.equal(
    await clock.run(deliver(pending, { ...deps, onStored: (message) => stored.push(message) }, true)),
    'stored',
  );
  assert.equal(posts(owui).length, before);
  assert.equal(stored.length, 1); // the next page shows them from the stored chat
});

test("sources in Open WebUI's own shape: stored when Open WebUI kept none (non-streamed), never twice", async () => {
  const ownShape = { ...pending, openWebuiShape: true as const };
  const { clock, owui, deps } = setUp();
  assert.equal(await clock.run(deliver(ownShape, deps, true)), 'stored');
  assert.equal(owui.sourceEvents(CHAT, 'a1'), 1);

  const kept = setUp(); // streamed, or its own RAG: Open WebUI stored them itself
  const theirs = { source: { id: 'f1', name: 'handbook.pdf' }, document: ['…'], metadata: [{ source: 'f1' }] };
  kept.owui.chats.get(CHAT)!.messages.a1!.sources = [theirs];
  assert.equal(await kept.clock.run(deliver(ownShape, kept.deps, true)), 'stored');
  assert.equal(posts(kept.owui).length, 0);
  // Any other producer's sources are stored beside Open WebUI's own (its url_citations, say).
  assert.equal(await kept.clock.run(deliver(pending, kept.deps, true)), 'stored');
  assert.equal(posts(kept.owui).length, 1);
});

test("up to 0.10, storing makes the answer the chat's current message: the newest is made current again", async () => {
  const { clock, owui, deps } = setUp();
  owui.chats.get(CHAT)!.messages.a2 = { content: 'A regenerated answer.' };
  await clock.run(deliver(pending, deps, true));
  assert.equal(owui.chats.get(CHAT)!.currentId, 'a2');
});

test('an answer Open WebUI never saves is left for a later page, after a bounded number of reads', async () => {
  const { clock, owui, deps } = setUp(false);
  assert.equal(await clock.run(deliver(pending, deps, true)), 'unsaved');
  assert.ok(owui.requests.length <= 45, `${owui.requests.length} reads`);
  assert.equal(posts(owui).length, 0);
});

test('the first failure puts the answer in the outbox, in case the page goes away before it is stored', async () => {
  const { clock, owui, deps } = setUp();
  faultsOver(clock, owui, 5000, 'network');
  let troubles = 0;
  await clock.run(deliver(pending, { ...deps, onTrouble: () => troubles++ }, true));
  assert.equal(troubles, 1);
});

test('a bug of ours is not retried: the delivery ends with it', async () => {
  const { clock, deps } = setUp();
  deps.settled = () => Promise.reject(new TypeError('x is undefined'));
  await assert.rejects(clock.run(deliver(pending, deps, true)), TypeError);
});

test('failures: network, 5xx, 429, unreadable: transient; 401/403 wait; other 4xx refuse; else: bugs', () => {
  const kinds = [
    new NetworkError('x'),
    new UnreadableResponse('x'),
    new HttpError(502, 'u'),
    new HttpError(429, 'u'),
    new HttpError(401, 'u'),
    new HttpError(403, 'u'),
    new HttpError(400, 'u'),
    new HttpError(404, 'u'),
    new TypeError('x'),
    'thrown string',
  ].map(failureKind);
  assert.deepEqual(kinds, [
    'transient',
    'transient',
    'transient',
    'transient',
    'unauthorised',
    'unauthorised',
    'refused',
    'refused',
    'programming',
    'programming',
  ]);
});
