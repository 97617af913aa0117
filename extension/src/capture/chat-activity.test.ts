import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';

import { createChatActivity } from './chat-activity.js';

const CHAT = '0ed4628a-a39c-4895-84d9-82550d3420fc';
const OTHER = '55940276-5c29-4935-bb88-233d593ab81b';
const ANSWER = '400a3492-0fb0-44b5-b136-65e1888fcdbd';
const body = (chatId?: string) =>
  JSON.stringify({
    model: 'perplexity',
    messages: [{ id: 'u1', role: 'user', content: '"chat_id":"x"' }],
    chat_id: chatId,
    id: ANSWER,
  });
/** An activity on a clock the test moves; `settled` polls it, on the test's mock timers: `tick`
 * runs one poll and what it settled. */
function clocked(t?: TestContext) {
  let now = 0;
  t?.mock.timers.enable({ apis: ['setTimeout'] });
  const tick = async () => {
    t?.mock.timers.tick(100);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { activity: createChatActivity(() => now), advance: (ms: number) => (now += ms), tick };
}

async function settledFlag(promise: Promise<void>, tick: () => Promise<void>): Promise<() => boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  await tick();
  return () => settled;
}

test('an answer the page asks for is told by its message id, new chat or not', () => {
  const { activity } = clocked();
  const asked: string[] = [];
  activity.onAsk((messageId) => asked.push(messageId));
  assert.equal(activity.request('/api/chat/completions', 'POST', body()), undefined);
  activity.request('/api/chat/completions', 'POST', body(CHAT));
  activity.request('/api/chat/completions', 'GET', body(CHAT));
  activity.request('/api/chat/completions', 'POST', '{not json');
  assert.deepEqual(asked, [ANSWER, ANSWER]);
});

test('a chat is settled once the page closed the answer, wrote the chat back, and a quiet second passed', async (t) => {
  const { activity, advance, tick } = clocked(t);
  const settled = await settledFlag(activity.settled(CHAT, 10_000), tick);
  const closed = activity.request('/api/chat/completed', 'POST', body(CHAT))!;
  advance(2000);
  await tick();
  assert.equal(settled(), false, 'the answer is being closed');
  closed();
  const written = activity.request(`/api/v1/chats/${CHAT}`, 'POST', '{"chat":{}}')!;
  advance(2000);
  await tick();
  assert.equal(settled(), false, 'the chat is being written back');
  written();
  advance(500);
  await tick();
  assert.equal(settled(), false, 'the write has just landed');
  advance(500);
  await tick();
  assert.equal(settled(), true);
});

test('a chat without activity is settled after a quiet second; a stuck one at the timeout', async (t) => {
  const { activity, advance, tick } = clocked(t);
  const quiet = await settledFlag(activity.settled(OTHER, 10_000), tick);
  assert.equal(quiet(), false);
  advance(1000);
  await tick();
  assert.equal(quiet(), true);
  activity.request(`/api/v1/chats/${CHAT}`, 'POST', '{}');
  const stuck = await settledFlag(activity.settled(CHAT, 10_000), tick);
  advance(9000);
  await tick();
  assert.equal(stuck(), false);
  advance(1000);
  await tick();
  assert.equal(stuck(), true);
});

test('a sign-in is told once its request is answered, not when sent; other requests are not sign-ins', () => {
  const { activity } = clocked();
  let signIns = 0;
  activity.onSignIn(() => signIns++);
  const answered = activity.request('/api/v1/auths/signin', 'POST', '{}');
  activity.request('/api/v1/auths/', 'GET', undefined);
  activity.request(`/api/v1/chats/${CHAT}`, 'POST', '{}')?.();
  assert.equal(signIns, 0);
  answered?.();
  assert.equal(signIns, 1);
});
