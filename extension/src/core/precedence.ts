/**
 * Which reading of an answer's sources the user is shown, when several exist: what streamed (or
 * the body), what the finished text itself lists, and what Open WebUI stored on the message.
 */

import type { ExtractResult } from './model.js';

export interface Readings {
  /** What the producer sent, read from the stream or the body. */
  streamed: ExtractResult;
  /** The sources the finished answer's text lists (Jina's footnote definitions, Brave's tags,
   * LightRAG's references), or null while it is not finished. Asked for only when needed. */
  written: () => ExtractResult | null;
  /** The sources stored on the message (a chat opened or reloaded), or null. Asked for only when needed. */
  stored: () => ExtractResult | null;
}

/** Whether what streamed is shown whatever the text and the store hold: they need not be read. */
export const streamedWins = (streamed: ExtractResult): boolean =>
  streamed.citations.length > 0 && streamed.format !== 'open-webui';

/** Raw upstream data wins over what is stored: it is what the producer sent. Sources read from the
 * text win over Open WebUI's own copy of the same sources (its source events from url_citations),
 * which are links: sources read without any link are not that copy, and leave Open WebUI's own (its
 * knowledge bases, its web search) as they are. */
export function chooseCitations({ streamed, written, stored }: Readings): ExtractResult {
  const copied = streamed.format === 'open-webui';
  if (streamedWins(streamed)) return streamed;
  const fromText = written();
  const fromStore = stored();
  const wins = copied ? fromText?.citations.some((c) => c.url !== null) : !fromStore?.citations.length;
  if (fromText?.citations.length && wins) return fromText;
  if (streamed.citations.length) return streamed;
  return fromStore ?? streamed;
}
