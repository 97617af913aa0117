/**
 * How Open WebUI's socket speaks, on every release line from 0.6 to 0.12: socket.io over Engine.IO,
 * by WebSocket or by long polling, with each update of a message sent as one `events` event in an
 * envelope naming its chat and message (`{chat_id, message_id, data: {type, data}}`). The capture
 * taps (capture/socket.ts, events.ts, echoes.ts) read the socket through these facts only.
 */

import { isId } from '../ids.js';

/** The first packet of every Engine.IO connection: `0{"sid":…}`. */
export const isEngineIoOpen = (packet: string): boolean => packet.startsWith('0{');

/** A WebSocket to Open WebUI's socket.io endpoint (`/ws/socket.io/`). */
export const isSocketUrl = (url: string): boolean => url.includes('socket.io');

/** socket.io's polling transport: a request whose response joins packets by the record separator. */
export const isPollingUrl = (url: string): boolean => url.includes('transport=polling');
export const pollingPackets = (body: string): string[] => body.split('\x1e');

/** Event types of the envelope's `data.type`. The answer's stream and its end: `chat:completion`
 * (0.6 to 0.11), `response:completion` (0.12). */
const COMPLETION_EVENTS: ReadonlySet<unknown> = new Set(['chat:completion', 'response:completion']);
export const isCompletionEvent = (type: unknown): boolean => COMPLETION_EVENTS.has(type);
/** A source of a message: `source` or `citation` (Open WebUI handles both alike). */
export const SOURCE_EVENT = 'source';
export const isSourceEvent = (type: unknown): boolean => type === SOURCE_EVENT || type === 'citation';
/** Not a source: the result of code the model ran, sent as a `source` event. */
export const CODE_EXECUTION = 'code_execution';
/** Open WebUI asks the page to call a user's direct connection itself (capture/direct-requests.ts). */
export const DIRECT_REQUEST = 'request:chat:completion';
/** The type of a piece of the answer's text inside a completion event (0.11, 0.12). */
export const TEXT_DELTA = 'response.output_text.delta';
/** A completion event's data once the answer is finished, as it appears in the packet. */
export const FINISHED = '"done":true';

const UNREAD_FRAME = Symbol('unread');
export type Unread = typeof UNREAD_FRAME;

/** `42["events",{…}]` (optionally `42/namespace,[…]`) → the event's payload; `undefined` for
 * another packet, and `UNREAD` for a frame that is no JSON (it is skipped). */
export function readPacket(packet: string): unknown {
  if (!packet.startsWith('42')) return undefined;
  const start = packet.indexOf('[');
  if (start < 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(packet.slice(start));
  } catch {
    return UNREAD_FRAME;
  }
  return Array.isArray(parsed) && parsed[0] === 'events' ? parsed[1] : undefined;
}
export const isUnread = (payload: unknown): payload is Unread => payload === UNREAD_FRAME;

/** An `events` packet's payload, or `undefined` (another packet, or no JSON). */
export function eventPayload(packet: string): unknown {
  const payload = readPacket(packet);
  return isUnread(payload) ? undefined : payload;
}

const MESSAGE_ID_KEY = '"message_id":"';

/** The message an unreadable `events` frame is about, found without parsing it: its first
 * `message_id` key's value, when that is an id (ids.ts; at most 128 characters are looked at). */
export function unreadMessageId(packet: string): string | null {
  if (!packet.startsWith('42') || !packet.includes('"events"')) return null;
  const at = packet.indexOf(MESSAGE_ID_KEY);
  if (at < 0) return null;
  const start = at + MESSAGE_ID_KEY.length;
  const id = packet.slice(start, start + 129).split('"', 1)[0];
  return isId(id) ? id : null;
}

/** An `events` payload as Open WebUI sends it. */
export interface Envelope {
  chat_id?: unknown;
  message_id?: unknown;
  shared?: unknown;
  data?: { type?: unknown; data?: unknown };
}

export interface MessageUpdate {
  messageId: string;
  /** null for a chat id that is none (a temporary chat's `local:…`): no chat to store into. */
  chatId: string | null;
  type: unknown;
  record: Record<string, unknown>;
}

/** The message an event is about, and its data; null for another viewer's mirror (`shared`), data
 * that is no object, or a message id that is no id (ids become request paths: ids.ts). */
export function readEnvelope(envelope: Envelope): MessageUpdate | null {
  const messageId = isId(envelope.message_id) ? envelope.message_id : null;
  const record = envelope.data?.data;
  // Shared events mirror the same message for other viewers of the chat: seen once already.
  if (!messageId || envelope.shared || typeof record !== 'object' || record === null) return null;
  const chatId = isId(envelope.chat_id) ? envelope.chat_id : null;
  return { messageId, chatId, type: envelope.data?.type, record: record as Record<string, unknown> };
}
