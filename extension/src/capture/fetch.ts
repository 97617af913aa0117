/**
 * Reads, from copies of the responses, what the page fetches itself: a stored chat
 * (`GET /api/v1/chats/<id>`, or a shared link's `GET /api/v1/chats/share/<id>`), and an
 * upstream's raw answer on a user's direct connection; and reports the page's requests about a chat to `activity`.
 * The app gets its original response, untouched and undelayed.
 */

import { guard } from '../guard.js';
import { patch } from '../host/globals.js';
import { isDirectCompletionsPath, isStoredChatPath } from '../host/routes.js';
import type { ChatActivity } from './chat-activity.js';
import type { DirectRequests, DirectTarget } from './direct-requests.js';
import type { Hub } from './hub.js';
import { readStoredChat, type StoredChat } from './stored-chat.js';

async function readDirectStream(hub: Hub, response: Response, target: DirectTarget): Promise<void> {
  const text = await response.text();
  // JSON body or SSE lines: the accumulator reads both.
  hub.add(target.messageId, target.chatId, text);
}

/** Reads the page's fetches until `signal` aborts (capture off); returns the page's own fetch, for
 * the extension's requests. */
export function tapFetch(hub: Hub, direct: DirectRequests, activity: ChatActivity, signal: AbortSignal): typeof fetch {
  const original = window.fetch.bind(window);
  const inspectRequest = guard('capture', (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : null;
    const url = new URL(request?.url ?? String(input), location.href);
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const onLanded = url.origin === location.origin ? activity.request(url.pathname, method, init?.body) : undefined;
    const upstream = method === 'POST' && isDirectCompletionsPath(url.pathname);
    const target = upstream && typeof init?.body === 'string' ? direct.take(init.body) : null;
    return { url, method, onLanded, target };
  });
  const onResponse = guard('capture', (url: URL, method: string, target: DirectTarget | null, response: Response) => {
    if (method === 'GET' && url.origin === location.origin && isStoredChatPath(url.pathname) && response.ok) {
      void response
        .clone()
        .json()
        .then(
          guard('capture', (chat: StoredChat | null) => readStoredChat(hub, chat)),
          () => {},
        );
    } else if (target) {
      void readDirectStream(hub, response.clone(), target).catch(() => {});
    }
  });
  const tapped = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = inspectRequest(input, init);
    try {
      const response = await original(input, init);
      if (request) onResponse(request.url, request.method, request.target, response);
      return response;
    } finally {
      if (request?.onLanded) guard('capture', request.onLanded)();
    }
  };
  // Once capture is off, unless another script wrapped it since: then ours stays in its chain,
  // passing everything through.
  patch<typeof fetch>('fetch', () => tapped, signal);
  return original;
}
