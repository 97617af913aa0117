/** Routes Open WebUI's socket `events` (chat id, message id, typed data) into the hub. */

import { isOwnSource } from '../core/index.js';
import { isId } from '../ids.js';
import type { Hub } from './hub.js';
import { messageText } from './message-text.js';

/** What the optional relay filter (owui_citations/relay_filter.py) sends: the part of a streamed
 * chunk Open WebUI dropped, as a chunk of its own. */
export const RELAY_EVENT = 'owui-citations:chunk';

/** Open WebUI asks the page to call a user's direct connection itself (direct-requests.ts). */
export const DIRECT_REQUEST = 'request:chat:completion';

interface Envelope {
  chat_id?: unknown;
  message_id?: unknown;
  shared?: unknown;
  data?: { type?: unknown; data?: unknown };
}

/** The message an event is about, and its data; null for another viewer's mirror, data that is no
 * object, or a message id that is no id (ids become request paths: ids.ts). A chat id that is
 * none (a temporary chat's `local:…`) is no chat to store into. */
function unwrapEnvelope(
  envelope: Envelope,
): { messageId: string; chatId: string | null; type: unknown; record: Record<string, unknown> } | null {
  const messageId = isId(envelope.message_id) ? envelope.message_id : null;
  const record = envelope.data?.data;
  // Shared events mirror the same message for other viewers of the chat: seen once already.
  if (!messageId || envelope.shared || typeof record !== 'object' || record === null) return null;
  const chatId = isId(envelope.chat_id) ? envelope.chat_id : null;
  return { messageId, chatId, type: envelope.data?.type, record: record as Record<string, unknown> };
}

/** A text-only packet read for the position of what follows it: the answer's piece, or the answer so far. */
export function routeText(hub: Hub, envelope: Envelope): void {
  const event = unwrapEnvelope(envelope);
  if (!event) return;
  const { messageId, chatId, record } = event;
  if (typeof record.delta === 'string') {
    hub.addText(messageId, chatId, record.delta, false);
    return;
  }
  const soFar = messageText(record);
  if (soFar !== undefined) hub.addText(messageId, chatId, soFar, true);
}

export function routeEvent(
  hub: Hub,
  envelope: Envelope,
  onDirectRequest: (messageId: string, chatId: string | null, formData: unknown) => void,
): void {
  const event = unwrapEnvelope(envelope);
  if (!event) return;
  const { messageId, chatId, type, record } = event;
  if (type === 'chat:completion' || type === 'response:completion') {
    if (record.done === true) hub.finish(messageId, messageText(record));
    else if (record.type !== 'response.output_text.delta') hub.add(messageId, chatId, record);
  } else if (type === RELAY_EVENT) {
    hub.add(messageId, chatId, record);
  } else if ((type === 'source' || type === 'citation') && record.type !== 'code_execution') {
    // Our stored source, broadcast back: this page already shows what it holds (no parse, no redraw).
    if (isOwnSource(record) && hub.citations(messageId).citations.length) return;
    hub.add(messageId, chatId, { type: 'source', data: record });
  } else if (type === DIRECT_REQUEST) {
    onDirectRequest(messageId, chatId, record.form_data);
  }
}
