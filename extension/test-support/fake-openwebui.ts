/**
 * For persist's unit tests: an in-memory Open WebUI, the endpoints persist uses (a chat, a
 * message event, the session), with faults to inject; and a fake clock for its waits.
 */

import { userOfToken } from '../src/persist/session.js';

interface FakeMessage {
  content: string;
  sources?: unknown[];
  done?: boolean;
}

/** What the next matching request meets instead of an answer. `lost`: Open WebUI does the work,
 * the answer never arrives. */
export type Fault = 'network' | 'lost' | 'html-502' | 'html-200' | 'event-false';

export interface FakeOpenWebui {
  fetch: typeof fetch;
  /** Every request, `METHOD path`, with the clock's time. */
  requests: Array<{ at: number; what: string }>;
  /** Chats by id; `userId`: whose chat it is (the signed-in user's when not given); `shareMode`:
   * the `share_mode` the chat's own JSON holds (its owner may write any). */
  chats: Map<string, { messages: Record<string, FakeMessage>; currentId: string; userId?: string; shareMode?: string }>;
  /** Decides, per request, whether it meets a fault. */
  fault: (method: string, path: string) => Fault | undefined;
  /** The session Open WebUI accepts (`tokenFor(user)`). */
  token: string;
  /** The sources of a message that are source events (what persist posts). */
  sourceEvents(chatId: string, messageId: string): number;
}

export const USER = 'u1';

/** A session token as Open WebUI makes it: a JWT whose claims name the user (not signed here). */
export const tokenFor = (userId: string): string =>
  `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ id: userId })).toString('base64url')}.signature`;

const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'Content-Type': 'application/json' } });
const html = (status: number) =>
  new Response('<html><body>Bad gateway</body></html>', { status, headers: { 'Content-Type': 'text/html' } });

export function createFakeOpenWebui(clock: FakeClock): FakeOpenWebui {
  const fake: FakeOpenWebui = {
    requests: [],
    chats: new Map(),
    fault: () => undefined,
    token: tokenFor(USER),
    sourceEvents: (chatId, messageId) => (fake.chats.get(chatId)?.messages[messageId]?.sources ?? []).length,
    async fetch(input, init) {
      const path = String(input);
      const method = init?.method ?? 'GET';
      fake.requests.push({ at: clock.now(), what: `${method} ${path}` });
      const fault = fake.fault(method, path);
      if (fault === 'network') throw new TypeError('Failed to fetch');
      if (fault === 'html-502') return html(502);
      if (fault === 'html-200') return html(200);
      if (fault === 'event-false') return json(false); // its database busy: nothing stored
      const signedIn = new Headers(init?.headers).get('Authorization') === `Bearer ${fake.token}`;
      const response = handle(method, path, init?.body, signedIn);
      if (fault === 'lost') throw new TypeError('network connection was lost');
      return response;
    },
  };

  function handle(method: string, path: string, body: unknown, signedIn: boolean): Response {
    const user = userOfToken(fake.token);
    if (path === '/api/v1/auths/') return signedIn ? json({ id: user }) : json({ detail: 'Not authenticated' }, 401);
    const [, chatId, messageId] = /^\/api\/v1\/chats\/([^/]+)(?:\/messages\/([^/]+)\/event)?$/.exec(path) ?? [];
    const chat = chatId === undefined ? undefined : fake.chats.get(chatId);
    if (!signedIn || !chat) return json({ detail: 'You do not have permission' }, 401);
    if (method === 'GET' && !messageId) {
      return json({
        id: chatId,
        user_id: chat.userId ?? user ?? USER,
        chat: {
          history: structuredClone({ messages: chat.messages, currentId: chat.currentId }),
          ...(chat.shareMode === undefined ? {} : { share_mode: chat.shareMode }),
        },
      });
    }
    if (method === 'POST' && messageId) {
      const event = JSON.parse(String(body)) as { type: string; data: unknown };
      const message = chat.messages[messageId];
      if (!message) return json(false);
      // read-modify-write, as Open WebUI
      if (event.type === 'source') message.sources = [...(message.sources ?? []), event.data];
      chat.currentId = messageId; // Open WebUI up to 0.10
      return json(true);
    }
    return json({ detail: 'Not Found' }, 404);
  }
  return fake;
}

export interface FakeClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Runs `work` to its end, moving time forward whenever nothing else can happen. */
  run<T>(work: Promise<T>, limitMs?: number): Promise<T>;
  /** Calls `fn` when the clock reaches `at`. */
  at(at: number, fn: () => void): void;
}

export function createFakeClock(): FakeClock {
  let now = 0;
  const timers: Array<{ at: number; fn: () => void }> = [];
  // Several turns: a response's body is read over more than one.
  const idle = async () => {
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
  };
  const clock: FakeClock = {
    now: () => now,
    at: (at, fn) => void timers.push({ at, fn }),
    sleep: (ms) => new Promise((resolve) => clock.at(now + ms, resolve)),
    async run(work, limitMs = 24 * 3600_000) {
      let finished = false;
      const result = work.finally(() => (finished = true));
      result.catch(() => {});
      for (await idle(); !finished; await idle()) {
        timers.sort((a, b) => a.at - b.at);
        const timer = timers.shift();
        if (!timer || timer.at > limitMs) throw new Error(`still waiting at ${now} ms, with nothing left to happen`);
        now = Math.max(now, timer.at);
        timer.fn();
      }
      return result;
    },
  };
  return clock;
}
