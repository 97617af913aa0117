/**
 * The three requests persist makes to Open WebUI, each response checked, each failure
 * classified (as ky does): the network (no response, or a timeout), HTTP (a response with an
 * error status), or an unreadable answer (a proxy's HTML page with a 200). A bug of ours is none
 * of these: it stays a plain exception.
 */

import type { StoredMessage } from '../capture/hub.js';

export class NetworkError extends Error {
  override name = 'NetworkError';
}

export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    url: string,
  ) {
    super(`HTTP ${status} from ${url}`);
  }
}

export class UnreadableResponse extends Error {
  override name = 'UnreadableResponse';
}

/** What a failure means for storing: try again later, wait for the user to sign in, give this
 * answer up (its chat is gone, or Open WebUI refuses what we send), or a bug of ours. */
export type FailureKind = 'transient' | 'unauthorised' | 'refused' | 'programming';

export function failureKind(error: unknown): FailureKind {
  if (error instanceof NetworkError || error instanceof UnreadableResponse) return 'transient';
  if (!(error instanceof HttpError)) return 'programming';
  if (error.status >= 500 || error.status === 429 || error.status === 408) return 'transient';
  // Open WebUI answers 401 both to an expired session and for a chat that no longer exists.
  if (error.status === 401 || error.status === 403) return 'unauthorised';
  return 'refused';
}

export interface StoredChat {
  messages: Record<string, StoredMessage>;
  /** The message the stored chat opens at. */
  currentId: unknown;
}

export interface OpenWebuiApi {
  readChat(chatId: string): Promise<StoredChat>;
  /** `POST …/event`; false when Open WebUI could not hand the event on. */
  postEvent(chatId: string, messageId: string, body: string): Promise<boolean>;
  /** Whether the page's session is valid (a 401 on a chat then means the chat is gone). */
  signedIn(): Promise<boolean>;
}

// A request that hangs (a proxy holding the connection) is a network failure, retried.
const TIMEOUT_MS = 30_000;

export function createOpenWebuiApi(fetch: typeof window.fetch, token: () => string | null): OpenWebuiApi {
  const request = async (url: string, init: RequestInit = {}): Promise<unknown> => {
    const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${token() ?? ''}` };
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
      text = await response.text();
    } catch (error) {
      throw new NetworkError(`${url}: ${String(error)}`, { cause: error });
    }
    if (!response.ok) throw new HttpError(response.status, url);
    try {
      return JSON.parse(text);
    } catch {
      throw new UnreadableResponse(`${url}: not JSON (${text.slice(0, 40)})`);
    }
  };

  return {
    async readChat(chatId) {
      const chat: unknown = await request(`/api/v1/chats/${chatId}`);
      const history = (chat as { chat?: { history?: { messages?: unknown; currentId?: unknown } } } | null)?.chat
        ?.history;
      if (typeof history?.messages !== 'object' || history.messages === null) {
        throw new UnreadableResponse(`/api/v1/chats/${chatId}: no chat history`);
      }
      return { messages: history.messages as Record<string, StoredMessage>, currentId: history.currentId };
    },
    async postEvent(chatId, messageId, body) {
      const answer = await request(`/api/v1/chats/${chatId}/messages/${messageId}/event`, { method: 'POST', body });
      if (typeof answer !== 'boolean') throw new UnreadableResponse('event: not a boolean');
      return answer;
    },
    async signedIn() {
      try {
        await request('/api/v1/auths/');
        return true;
      } catch (error) {
        if (failureKind(error) === 'unauthorised') return false;
        throw error;
      }
    },
  };
}
