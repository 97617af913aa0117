/**
 * Open WebUI broadcasts every stored source to the user's tabs, and the app appends each one
 * to its copy of the message; up to 0.11 it writes that copy back to the server with the chat.
 * When a write-back erased our stored source and we store it again (persist/store.ts), its
 * second broadcast would put it twice in the app's copy, and so twice on the server at the next
 * write-back. So the app gets our source for a message once: a repeat is not handed to it.
 * Only packets holding our stored citations (`"owc"` metadata) are looked at.
 */

import { keepLast } from '../bounded.js';
import { isOwnSource, STORED_KEY } from '../core/index.js';
import { eventPayload, SOURCE_EVENT } from '../host/socket-protocol.js';

interface SourceEvent {
  message_id?: unknown;
  data?: { type?: unknown; data?: unknown };
}

/** The message id of a `source` event holding our stored citations, or null. */
function ourSourceFor(packet: string): string | null {
  // Most packets are tokens: only one that names our key is parsed.
  if (!packet.includes(`"type":"${SOURCE_EVENT}"`) || !packet.includes(`"${STORED_KEY}":`)) return null;
  const event = eventPayload(packet) as SourceEvent | undefined;
  const ours = event?.data?.type === SOURCE_EVENT && isOwnSource(event.data.data);
  return ours && typeof event.message_id === 'string' ? event.message_id : null;
}

/** Whether the app should get a packet: false only for a repeat of our source for a message. */
export function createEchoFilter(): (packet: unknown) => boolean {
  const delivered = new Set<string>();
  return (packet) => {
    const messageId = typeof packet === 'string' ? ourSourceFor(packet) : null;
    if (messageId === null) return true;
    if (delivered.has(messageId)) return false;
    delivered.add(messageId);
    keepLast(delivered, 1000);
    return true;
  };
}
