/**
 * The three requests persist makes to Open WebUI, the only requests the extension makes: read
 * a chat, post an event on one of its messages, ask who is signed in. Each is built in one
 * place (`pathOf`) from ids checked again there, and sent only with the session of the user
 * it is made for. Each response checked, each failure classified (as ky does): the network (no
 * response, or a timeout), HTTP (a response with an error status), an unreadable answer (a
 * proxy's HTML page with a 200), or a request we refuse to send. A bug of ours is none of
 * these: it stays a plain exception.
 */

import type { StoredMessage } from '../capture/hub.js';
import { chatPath, messageEventPath, SESSION_PATH } from '../host/routes.js';
import { isId } from '../ids.js';
import { userOfToken } from './session.js';

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

/** Not sent: an id that is not one (a crafted chat's key: `..`, `?`, a path). */
export class InvalidId extends Error {
  override name = 'InvalidId';
}

/** Not sent: the page's session is not the user's the request is made for (signed out, or
 * another person signed in in this browser). */
export class OtherSession extends Error {
  override name = 'OtherSession';
}

/** What a failure means for storing: try again later, wait for the user to sign in, give this
 * answer up (its chat is gone, or Open WebUI refuses what we send), or a bug of ours. */
export type FailureKind = 'transient' | 'unauthorised' | 'refused' | 'programming';

export function failureKind(error: unknown): FailureKind {
  if (error instanceof NetworkError || error instanceof UnreadableResponse) return 'transient';
  if (error instanceof OtherSession) return 'unauthorised';
  if (error instanceof InvalidId) return 'refused';
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
  /** The user may write to it: their own chat (`user_id`, a column the server sets). Not another
   * user's chat that says in its JSON it is shared to continue: up to 0.11 that `share_mode` is
   * whatever the chat's owner wrote into it, and the response looks the same as 0.12's, whose
   * server sets it. Its event endpoint takes only the owner's writes (or an admin's) anyway. */
  writable: boolean;
  /** As the user named it (or Open WebUI did). */
  title: string;
}

/** Every request the extension makes. */
type Endpoint =
  | { name: 'chat'; chatId: string }
  | { name: 'event'; chatId: string; messageId: string; body: string }
  | { name: 'session' };

/** An id checked before it names a request (host/routes.ts encodes it into the path). */
const segment = (id: string): string => {
  if (!isId(id)) throw new InvalidId(`not an id: ${JSON.stringify(String(id).slice(0, 40))}`);
  return id;
};

function pathOf(endpoint: Endpoint): string {
  switch (endpoint.name) {
    case 'chat':
      return chatPath(segment(endpoint.chatId));
    case 'event':
      return messageEventPath(segment(endpoint.chatId), segment(endpoint.messageId));
    case 'session':
      return SESSION_PATH;
  }
}

/** Requests made for one user: sent only while the page's session is that user's. */
export interface OpenWebuiApi {
  readChat(chatId: string): Promise<StoredChat>;
  /** `POST …/event`; false when Open WebUI could not hand the event on. */
  postEvent(chatId: string, messageId: string, body: string): Promise<boolean>;
  /** Whether the page's session is valid and the user's (a 401 on a chat then means the chat is gone). */
  signedIn(): Promise<boolean>;
}

// A request that hangs (a proxy holding the connection) is a network failure, retried.
const TIMEOUT_MS = 30_000;

const timeoutOr = (stop?: AbortSignal): AbortSignal =>
  stop ? AbortSignal.any([stop, AbortSignal.timeout(TIMEOUT_MS)]) : AbortSignal.timeout(TIMEOUT_MS);

/** `stop`: persist turned off; a request on its way is cancelled, none is sent after. */
export function createOpenWebuiApi(
  fetch: typeof window.fetch,
  token: () => string | null,
  userId: string,
  stop?: AbortSignal,
): OpenWebuiApi {
  const request = async (endpoint: Endpoint): Promise<unknown> => {
    const url = pathOf(endpoint);
    const session = token();
    if (userOfToken(session) !== userId) throw new OtherSession(url);
    const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${session}` };
    const init: RequestInit = endpoint.name === 'event' ? { method: 'POST', body: endpoint.body } : {};
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, { ...init, headers, signal: timeoutOr(stop) });
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
      const chat = (await request({ name: 'chat', chatId })) as {
        user_id?: unknown;
        chat?: { title?: unknown; history?: { messages?: unknown; currentId?: unknown } };
      } | null;
      const history = chat?.chat?.history;
      if (typeof history?.messages !== 'object' || history.messages === null) {
        throw new UnreadableResponse(`chat ${chatId}: no chat history`);
      }
      return {
        messages: history.messages as Record<string, StoredMessage>,
        currentId: history.currentId,
        writable: chat!.user_id === userId,
        title: typeof chat!.chat!.title === 'string' ? chat!.chat!.title : '',
      };
    },
    async postEvent(chatId, messageId, body) {
      const answer = await request({ name: 'event', chatId, messageId, body });
      if (typeof answer !== 'boolean') throw new UnreadableResponse('event: not a boolean');
      return answer;
    },
    async signedIn() {
      try {
        await request({ name: 'session' });
        return true;
      } catch (error) {
        if (failureKind(error) === 'unauthorised') return false;
        throw error;
      }
    },
  };
}
