/**
 * Packets that carry only the answer's text, the bulk of a stream, recognised without parsing
 * them. Release lines frame the text differently; each framing is recognised by its shape:
 * - a delta event `{"type":"response.output_text.delta", …}` (0.11, 0.12);
 * - the whole answer so far, again at every token, alone in a `chat:completion` event: as
 *   `{"content":"…"}` (0.6 to 0.9) or as `{"output":[…]}` (0.10). Parsing each would cost O(n²)
 *   over an answer of n characters, for text that the final `done` event repeats.
 * A packet with an annotation, or with any other field beside the text, is parsed.
 */

import { TEXT_DELTA } from './socket-protocol.js';

const CUMULATIVE = '"type":"chat:completion","data":{';
const TEXT = '"content":"';
const OUTPUT = '"output":[';

const hasAnnotation = (packet: string, from = 0): boolean => packet.includes('"annotation', from);

/** The text event of 0.11 and 0.12, unless it also carries an annotation. */
const isTextDelta = (packet: string): boolean => packet.includes(`"${TEXT_DELTA}"`) && !hasAnnotation(packet);

export type TextPacketKind = 'delta' | 'so-far';

/**
 * `{"content":"…"}`: `content` is the only key when no `","` follows its opening quote (inside a
 * JSON string every quote is escaped, so `","` can only end the string and start another key),
 * and the packet ends right after the string. `{"output":[…]}`: the packet ends right after the
 * list, which holds no annotation (0.10 writes no other key beside it).
 */
function isCumulative(packet: string): boolean {
  const start = packet.indexOf(CUMULATIVE);
  if (start < 0) return false;
  const data = start + CUMULATIVE.length;
  if (packet.startsWith(TEXT, data)) return packet.endsWith('"}}}]') && packet.indexOf('","', data + TEXT.length) < 0;
  if (packet.startsWith(OUTPUT, data)) return packet.endsWith(']}}}]') && !hasAnnotation(packet, data);
  return false;
}

/** What a text-only packet holds: a piece of the answer, or the whole answer so far; null for any other packet. */
export const textPacketKind = (packet: string): TextPacketKind | null =>
  isTextDelta(packet) ? 'delta' : isCumulative(packet) ? 'so-far' : null;
