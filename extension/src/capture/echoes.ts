/**
 * Open WebUI broadcasts every stored source to the user's tabs, and the app appends each one
 * to its copy of the message; up to 0.11 it writes that copy back to the server with the chat.
 * When a write-back erased our stored source and we store it again (persist/store.ts), its
 * second broadcast would put it twice in the app's copy, and so twice on the server at the next
 * write-back. So the app gets our source for a message once: a repeat is not handed to it.
 * Only packets holding our stored citations (`"owc"` metadata) are looked at.
 */

import { keepLast } from '../bounded.js';
import { STORED_KEY } from '../core/index.js';

interface SourceEvent {
  message_id?: unknown;
  data?: { type?: unknown; data?: { metadata?: unknown } };
}

/** The message id of a `source` event holding our stored citations, or null. */
function ourSourceFor(packet: string): string | null {
  if (!packet.startsWith('42') || !packet.includes('"type":"source"') || !packet.includes(`"${STORED_KEY}":`)) return null;
  const parsed: unknown = JSON.parse(packet.slice(packet.indexOf('[')));
  const event = (Array.isArray(parsed) && parsed[0] === 'events' ? parsed[1] : null) as SourceEvent | null;
  const metadata = event?.data?.type === 'source' ? event.data.data?.metadata : null;
  const ours = Array.isArray(metadata) && metadata.some((m) => typeof m === 'object' && m !== null && STORED_KEY in m);
  return ours && typeof event?.message_id === 'string' ? event.message_id : null;
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
