/**
 * The page's own requests about a chat, seen by the fetch tap: asking for an answer
 * (`POST /api/chat/completions`), closing it (`POST /api/chat/completed`) and writing the whole
 * chat back (`POST /api/v1/chats/<id>` with the page's copy of every message).
 *
 * Up to 0.11 the page closes every answer and then writes the chat back (0.12 does neither),
 * and writes it again whenever the user sends. A source stored while such a write is on its
 * way is erased by it (the write was made from a copy without it). So citations wait until the
 * chat is `settled`: nothing on its way, and quiet; should a later write (the user sending at
 * that moment) erase them anyway, they are stored again (see echoes.ts).
 */

import { keepLast } from '../bounded.js';
import { COMPLETED_PATH, COMPLETIONS_PATH, chatIdOfPath, isSignInPath } from '../host/routes.js';

export interface ChatActivity {
  /** The fetch tap's report of a request; returns what to call once its response has arrived. */
  request(path: string, method: string, body: unknown): (() => void) | undefined;
  /** Tells `listener` of each answer this page asks for (its message id, chosen by the page, and
   * the Open WebUI model asked, when the request names one). */
  onAsk(listener: (messageId: string, model: string | null) => void): void;
  /** Tells `listener` when the page's sign-in request has been answered (the app then keeps its new token). */
  onSignIn(listener: () => void): void;
  /** Resolves once no close or write of the chat is on its way and none landed for `quietMs`,
   * counted from the call (the page closes an answer a moment after it is done); or after
   * `timeoutMs`. */
  settled(chatId: string, timeoutMs: number, quietMs?: number): Promise<void>;
}

const QUIET_MS = 1000;
// Chats whose writes are followed: the ones used last.
const MAX_CHATS = 100;

/** A string field of a JSON request body (a request for an answer: once per answer). */
function field(body: unknown, name: 'id' | 'chat_id' | 'model'): string | null {
  if (typeof body !== 'string') return null;
  try {
    const value: unknown = JSON.parse(body)?.[name];
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function createChatActivity(now: () => number = () => performance.now()): ChatActivity {
  const chats = new Map<string, { onTheirWay: number; lastLanded: number }>();
  const askListeners: Array<(messageId: string, model: string | null) => void> = [];
  const signInListeners: Array<() => void> = [];
  const chat = (id: string) => {
    let entry = chats.get(id);
    if (!entry) {
      entry = { onTheirWay: 0, lastLanded: -Infinity };
      chats.set(id, entry);
      keepLast(chats, MAX_CHATS);
    }
    return entry;
  };

  return {
    request(path, method, body) {
      if (method !== 'POST') return undefined;
      if (path === COMPLETIONS_PATH) {
        const id = field(body, 'id');
        const model = id && field(body, 'model');
        if (id) askListeners.forEach((listener) => listener(id, model || null));
        return undefined;
      }
      if (isSignInPath(path)) return () => signInListeners.forEach((listener) => listener());
      const id = chatIdOfPath(path) ?? (path === COMPLETED_PATH ? field(body, 'chat_id') : null);
      if (!id) return undefined;
      const entry = chat(id);
      entry.onTheirWay++;
      return () => {
        entry.onTheirWay--;
        entry.lastLanded = now();
      };
    },
    onAsk: (listener) => void askListeners.push(listener),
    onSignIn: (listener) => void signInListeners.push(listener),
    async settled(chatId, timeoutMs, quietMs = QUIET_MS) {
      const start = now();
      for (;;) {
        const entry = chat(chatId);
        const quietSince = Math.max(start, entry.lastLanded);
        if ((entry.onTheirWay === 0 && now() - quietSince >= quietMs) || now() - start >= timeoutMs) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}
