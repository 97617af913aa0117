import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';
import type { ChatActivity } from '../capture/chat-activity.js';
import { createHub } from '../capture/hub.js';
import { fail } from '../guard.js';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/' });
const { startStore } = await import('./store.js');

// A session token as Open WebUI keeps it: only its `id` claim is read (session.ts).
localStorage.setItem('token', `e30.${btoa(JSON.stringify({ id: 'user-1' }))}.signature`);

const activity: ChatActivity = { request: () => undefined, onAsk() {}, onSignIn() {}, settled: async () => {} };
const perplexity = {
  choices: [{ message: { role: 'assistant', content: 'Stars [1].' } }],
  citations: ['https://example.com/stars'],
};

/** The requests the store sends for one finished answer with sources, in a chat named `chatId`. */
async function requestsFor(chatId: string): Promise<string[]> {
  const requests: string[] = [];
  const fetch = async (url: RequestInfo | URL) => {
    requests.push(String(url));
    return new Response('{}', { status: 404 });
  };
  const hub = createHub(() => 'en');
  startStore(hub, fetch as typeof window.fetch, activity);
  hub.add('message-1', chatId, perplexity);
  hub.finish('message-1', 'Stars [1].');
  await new Promise((resolve) => setTimeout(resolve, 50));
  return requests;
}

test("a finished answer's sources are stored into its chat: the store reads the chat first", async () => {
  assert.deepEqual(await requestsFor('chat-1'), ['/api/v1/chats/chat-1']);
});

test('a temporary chat (its id "local", store.ts) starts no request at all', async () => {
  assert.deepEqual(await requestsFor('local'), []);
});

test('an answer whose page goes away before it is stored is left, whole, to the next page', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] }); // storing has not begun: the browser was never idle
  const requests: string[] = [];
  const hub = createHub(() => 'en');
  const fetch = async (url: RequestInfo | URL) => {
    requests.push(String(url));
    return new Response('{}', { status: 404 });
  };
  startStore(hub, fetch as typeof window.fetch, activity);
  hub.add('message-3', 'chat-3', perplexity);
  hub.finish('message-3', 'Stars [1].');
  window.dispatchEvent(new Event('pagehide'));
  assert.deepEqual(requests, []);
  const left = JSON.parse(localStorage.getItem('owui-citations:outbox:user-1:message-3') ?? '{}');
  assert.equal(left.chatId, 'chat-3');
  assert.match(left.body, /https:\/\/example\.com\/stars/);
  localStorage.removeItem('owui-citations:outbox:user-1:message-3');
});

test('what the outbox holds under the earlier key is stored; a body that is not a source event is never posted', async (t) => {
  t.mock.method(console, 'warn', () => {});
  const requests: string[] = [];
  const answers: Record<string, { content: string; sources?: unknown[] }> = {
    'message-7': { content: 'Stars [1].' },
    'message-8': { content: 'Stars [1].' },
  };
  const chat = { id: 'chat-7', user_id: 'user-1', chat: { history: { messages: answers, currentId: 'message-8' } } };
  const fetch = async (url: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    if (method === 'GET') {
      requests.push(`GET ${url}`);
      return new Response(JSON.stringify(chat));
    }
    const event = JSON.parse(String(init?.body));
    requests.push(`POST ${url} ${event.type}`);
    const messageId = /messages\/([^/]+)\/event$/.exec(String(url))?.[1] ?? '';
    answers[messageId]!.sources = [event.data]; // as Open WebUI keeps it
    return new Response('true');
  };
  const source = JSON.stringify({
    type: 'source',
    data: {
      source: { id: 'owui-citations', name: 'Citations' },
      document: ['Stars.'],
      metadata: [{ source: 'https://example.com/stars', name: 'Stars', external: true, owc: { title: 'Stars' } }],
    },
  });
  const leave = (messageId: string, body: string) =>
    localStorage.setItem(
      `owui-citations:outbox:${messageId}`, // as the previous version kept it
      JSON.stringify({ userId: 'user-1', chatId: 'chat-7', messageId, body, at: Date.now() }),
    );
  leave('message-7', source);
  leave('message-8', JSON.stringify({ type: 'replace', data: { content: 'Rewritten.' } }));
  startStore(
    createHub(() => 'en'),
    fetch as typeof window.fetch,
    activity,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(
    requests.filter((request) => request.startsWith('POST')),
    ['POST /api/v1/chats/chat-7/messages/message-7/event source'],
  );
  assert.equal(localStorage.getItem('owui-citations:outbox:message-8'), null);
  localStorage.removeItem('owui-citations:outbox:message-7'); // removed once stored, a second later
});

// Last: it turns persist off for the rest of this file's process.
test('persist turned off mid-delivery sends no further request, and leaves the answer to the next page', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  t.mock.method(console, 'warn', () => {});
  const requests: string[] = [];
  const busy = async (url: RequestInfo | URL) => {
    requests.push(String(url));
    return new Response('busy', { status: 503 });
  };
  const settle = async () => {
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  const hub = createHub(() => 'en');
  startStore(hub, busy as typeof window.fetch, activity);
  hub.add('message-2', 'chat-2', perplexity);
  hub.finish('message-2', 'Stars [1].');
  t.mock.timers.tick(0); // stored once the browser is idle (after the buttons)
  await settle();
  t.mock.timers.tick(1000); // a 503 is retried within a second
  await settle();
  assert.deepEqual(requests, ['/api/v1/chats/chat-2', '/api/v1/chats/chat-2']);

  fail('persist', new Error('a bug of ours'));
  t.mock.timers.tick(60_000);
  await settle();
  assert.equal(requests.length, 2);
  assert.match(localStorage.getItem('owui-citations:outbox:user-1:message-2') ?? '', /"chatId":"chat-2"/);
});
