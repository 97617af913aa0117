/** Routes Open WebUI's socket `events` (chat id, message id, typed data) into the hub. */

import { isOwnSource } from '../core/index.js';
import { messageText } from '../host/message-text.js';
import {
  CODE_EXECUTION,
  DIRECT_REQUEST,
  type Envelope,
  isCompletionEvent,
  isSourceEvent,
  readEnvelope,
  SOURCE_EVENT,
  TEXT_DELTA,
} from '../host/socket-protocol.js';
import type { Hub } from './hub.js';

/** What the optional relay filter (owui_citations/relay_filter.py) sends: the part of a streamed
 * chunk Open WebUI dropped, as a chunk of its own. */
export const RELAY_EVENT = 'owui-citations:chunk';

/** A text-only packet read for the position of what follows it: the answer's piece, or the answer so far. */
export function routeText(hub: Hub, envelope: Envelope): void {
  const event = readEnvelope(envelope);
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
  const event = readEnvelope(envelope);
  if (!event) return;
  const { messageId, chatId, type, record } = event;
  if (isCompletionEvent(type)) {
    if (record.done === true) hub.finish(messageId, messageText(record));
    else if (record.type !== TEXT_DELTA) hub.add(messageId, chatId, record);
  } else if (type === RELAY_EVENT) {
    hub.add(messageId, chatId, record);
  } else if (isSourceEvent(type) && record.type !== CODE_EXECUTION) {
    // Our stored source, broadcast back: this page already shows what it holds (no parse, no redraw).
    if (isOwnSource(record) && hub.citations(messageId).citations.length) return;
    hub.add(messageId, chatId, { type: SOURCE_EVENT, data: record });
  } else if (type === DIRECT_REQUEST) {
    onDirectRequest(messageId, chatId, record.form_data);
  }
}
