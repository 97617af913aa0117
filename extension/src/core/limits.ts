/**
 * Bounds on what one payload turns into, so that a producer sending 10,000 sources or
 * megabytes of text neither freezes the page nor bloats every stored chat: at most
 * MAX_CITATIONS sources (the producer's first ones), and snippets of at most MAX_SNIPPET
 * characters, cut around the verbatim quote when there is one.
 */

import type { Quote } from './model.js';

export const MAX_CITATIONS = 1000;
export const MAX_SNIPPET = 4000;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** `snippet` cut to MAX_SNIPPET characters that hold the whole quote, its offsets moved along. */
export function boundSnippet(snippet: string, quote: Quote | null): { snippet: string; quote: Quote | null } {
  if (snippet.length <= MAX_SNIPPET) return { snippet, quote };
  const span = quote && quote.start !== null && quote.end !== null ? { start: quote.start, end: quote.end } : null;
  let from = span ? Math.max(0, Math.min(span.start, span.end - MAX_SNIPPET)) : 0;
  let to = Math.max(from + MAX_SNIPPET, span?.end ?? 0);
  // A cut between the halves of a surrogate pair leaves a lone half, which Open WebUI drops when storing.
  if (isLowSurrogate(snippet.charCodeAt(from))) from++;
  if (isHighSurrogate(snippet.charCodeAt(to - 1))) to--;
  const cut = snippet.slice(from, to);
  return { snippet: cut, quote: quote && span ? { ...quote, start: span.start - from, end: span.end - from } : quote };
}
