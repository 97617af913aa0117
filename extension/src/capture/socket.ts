/**
 * Reads socket.io `events` packets as they reach the page, over WebSocket or over the
 * long-polling transport, without touching the app's own handling: our listener only queues
 * the frame, and the queue is read in a later task.
 */

import { PLACED_BY_POSITION } from '../core/index.js';
import { guard } from '../guard.js';
import { patch } from '../host/globals.js';
import {
  DIRECT_REQUEST,
  eventPayload,
  FINISHED,
  isEngineIoOpen,
  isPollingUrl,
  isSocketUrl,
  isUnread,
  pollingPackets,
  readPacket,
  unreadMessageId,
} from '../host/socket-protocol.js';
import { textPacketKind } from '../host/text-packets.js';

type PacketHandler = (event: unknown) => void;

// A raw chunk whose sources are placed by where it comes in the text (core's PLACED_BY_POSITION):
// the text packets before it are read with it.
const PLACED_BY_POSITION_KEY = `"${PLACED_BY_POSITION}"`;
// Text packets kept at most, between two such chunks; past it, positions are not known (no button).
const MAX_KEPT_TEXT_PACKETS = 50_000;

const RECONNECTED = Symbol('reconnected');

/**
 * Text-only packets, the bulk of a stream, are not parsed. They are kept (pieces added up, an
 * answer so far in place of the previous one) until a chunk placed by position needs them, then
 * read before it with ``onText``; dropped when an answer finishes.
 *
 * What never reached the page, or reached it unreadable, is told to ``lost``, in order with the
 * frames around it: an `events` frame that is no JSON (with the message it names), and a new
 * connection after the first (Engine.IO's open packet again: the socket was closed, by a missed
 * heartbeat on a busy machine say, and what Open WebUI sent meanwhile went to no one).
 */
export function createPacketReader(
  onEvent: PacketHandler,
  onUrgent: PacketHandler,
  onText: PacketHandler,
  lost: { unread?(messageId: string): void; reconnected?(): void } = {},
): (packet: string) => void {
  const queue: Array<{ packet: string; text: boolean } | typeof RECONNECTED> = [];
  let kept: string[] = [];
  let overflowed = false;
  let scheduled = false;
  let connections = 0;
  const flush = guard('capture', () => {
    scheduled = false;
    for (const queued of queue.splice(0)) {
      if (queued === RECONNECTED) {
        lost.reconnected?.();
        continue;
      }
      const { packet, text } = queued;
      const payload = readPacket(packet);
      if (isUnread(payload)) {
        const messageId = unreadMessageId(packet);
        if (messageId) lost.unread?.(messageId);
      } else if (payload !== undefined) (text ? onText : onEvent)(payload);
    }
  });
  const keepText = (packet: string, kind: 'delta' | 'so-far'): void => {
    if (kind === 'so-far')
      kept.splice(0, kept.length, packet); // the answer so far replaces the last, no new list per token
    else if (kept.length < MAX_KEPT_TEXT_PACKETS) kept.push(packet);
    else overflowed = true;
  };
  const enqueue = (queued: (typeof queue)[number]): void => {
    queue.push(queued);
    if (!scheduled) {
      scheduled = true;
      setTimeout(flush, 0);
    }
  };
  return guard('capture', (packet: string) => {
    if (typeof packet !== 'string' || packet.length < 3) return;
    if (isEngineIoOpen(packet)) {
      if (connections++ > 0) enqueue(RECONNECTED);
      return;
    }
    const kind = textPacketKind(packet);
    if (kind) return void keepText(packet, kind);
    // A direct-connection request is answered by a fetch in the same task: read it now.
    if (packet.includes(`"${DIRECT_REQUEST}"`)) return void guard('capture', () => onUrgent(eventPayload(packet)))();
    if (packet.includes(PLACED_BY_POSITION_KEY) && !overflowed)
      kept.splice(0).forEach((text) => enqueue({ packet: text, text: true }));
    if (packet.includes(FINISHED)) [kept, overflowed] = [[], false];
    enqueue({ packet, text: false });
  });
}

/** The app's own handler (socket.io sets `onmessage`) gets a packet only when `deliver` agrees. */
function filterAppHandler(
  socket: WebSocket,
  handlers: PropertyDescriptor,
  deliver: (packet: unknown) => boolean,
): void {
  const appMayHave = guard('capture', deliver); // on an error, the app gets everything
  Object.defineProperty(socket, 'onmessage', {
    configurable: true,
    get: () => handlers.get!.call(socket),
    set: (handler: unknown) =>
      handlers.set!.call(
        socket,
        typeof handler !== 'function'
          ? handler
          : function (this: WebSocket, event: MessageEvent) {
              if (appMayHave(event.data) !== false)
                return (handler as (event: MessageEvent) => unknown).call(this, event);
            },
      ),
  });
}

/** Every socket.io WebSocket opened from now on is read; until `signal` aborts (capture off).
 * Sockets already open keep our listener, which does nothing once capture is off. */
export function tapWebSocket(
  read: (packet: string) => void,
  deliver: (packet: unknown) => boolean,
  signal: AbortSignal,
): void {
  patch<typeof WebSocket>(
    'WebSocket',
    (Original) => {
      let handlers: PropertyDescriptor | undefined;
      // WebSocket.prototype's, or further up when another script subclassed WebSocket before us.
      for (let proto = Original.prototype; proto && !handlers; proto = Object.getPrototypeOf(proto)) {
        handlers = Object.getOwnPropertyDescriptor(proto, 'onmessage');
      }
      return class TappedWebSocket extends Original {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          if (isSocketUrl(String(url))) {
            this.addEventListener('message', (event: MessageEvent) => {
              if (typeof event.data === 'string') read(event.data);
            });
            if (handlers?.get && handlers.set) guard('capture', filterAppHandler)(this, handlers, deliver);
          }
        }
      };
    },
    signal,
  );
}

/** socket.io's polling transport: the packets of its XHR responses. */
export function tapPolling(read: (packet: string) => void, signal: AbortSignal): void {
  patch<XMLHttpRequest['open']>(
    'XMLHttpRequest.prototype.open',
    (open) =>
      function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
        if (isPollingUrl(String(url))) {
          this.addEventListener('load', () => {
            if (typeof this.responseText === 'string') pollingPackets(this.responseText).forEach(read);
          });
        }
        return (open as (...args: unknown[]) => void).call(this, method, url, ...rest);
      } as XMLHttpRequest['open'],
    signal,
  );
}
