/**
 * Bounds on what one payload turns into, so that a producer sending 10,000 sources or
 * megabytes of text neither freezes the page nor bloats every stored chat (a citation is
 * stored with its message and loaded at every opening of the chat). One home for every bound:
 * - at most MAX_CITATIONS sources (the producer's first ones);
 * - snippets and quotes of at most MAX_SNIPPET characters, a snippet cut around its verbatim
 *   quote when there is one;
 * - at most MAX_ANCHORS anchors and MAX_REFS refs per source (the first ones);
 * - title, id, file and date of at most MAX_FIELD characters;
 * - links of at most MAX_URL characters (a longer one is dropped, not cut: cut, it would lead elsewhere).
 * Pages need no bound of their own: one per draft, so at most MAX_CITATIONS.
 */

import type { Quote } from './model.js';

export const MAX_CITATIONS = 1000;
export const MAX_SNIPPET = 4000;
export const MAX_ANCHORS = 64;
export const MAX_REFS = 64;
export const MAX_FIELD = 500;
// Browsers and servers take URLs of this length; a page's address with a text fragment is well under it.
export const MAX_URL = 8192;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

// A cut between the halves of a surrogate pair leaves a lone half, which Open WebUI drops when
// storing: every cut below moves inwards by one code unit rather than split a pair.

/** The first `max` UTF-16 units of `text` at most, never half a surrogate pair. */
export function cutStart(text: string, max: number): string {
  if (text.length <= max) return text;
  return text.slice(0, isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max);
}

/** The last `max` UTF-16 units of `text` at most, never half a surrogate pair. */
export function cutEnd(text: string, max: number): string {
  if (text.length <= max) return text;
  const from = text.length - max;
  return text.slice(isLowSurrogate(text.charCodeAt(from)) ? from + 1 : from);
}

/** A title or date within MAX_FIELD: its start. */
export const boundField = <T extends string | null | undefined>(text: T): T =>
  (typeof text === 'string' ? cutStart(text, MAX_FIELD) : text) as T;

/** A file name or path within MAX_FIELD: its end, where the name is (it is read only for the title). */
export const boundFile = <T extends string | null | undefined>(text: T): T =>
  (typeof text === 'string' ? cutEnd(text, MAX_FIELD) : text) as T;

/** The first `max` items of `list`: the list itself when it is within. */
export const boundList = <T>(list: T[], max: number): T[] => (list.length <= max ? list : list.slice(0, max));

/**
 * cyrb53 (public domain): a 53-bit hash of the UTF-16 units, written in base 36 (at most 11
 * characters). Not cryptographic, and it need not be: ids are compared only among the sources
 * of one payload, so whoever could forge a collision merges only its own sources.
 */
function hash53(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

const HASH_CHARS = 11; // 2^53 in base 36 takes 11 digits

/**
 * An id within MAX_FIELD. The id is what sources are merged by, so a longer one keeps its start
 * and gains a hash of the whole: two ids sharing their first characters (long URLs of one site
 * often do) stay two, one id met twice stays one. The result is within MAX_FIELD, so a stored
 * citation read back keeps the same id and the same identity.
 */
export function boundId(id: string): string {
  if (id.length <= MAX_FIELD) return id;
  return `${cutStart(id, MAX_FIELD - HASH_CHARS - 2)}…#${hash53(id).padStart(HASH_CHARS, '0')}`;
}

/**
 * `snippet` cut to MAX_SNIPPET characters that hold the whole quote, its offsets moved along,
 * and the quote's text cut to MAX_SNIPPET too. A quote whose text or span is longer than that
 * cannot be held whole: its text keeps its start, the snippet is cut from where the quote
 * starts, and the quote loses its offsets (start and end null) and its `verbatim`, which becomes
 * null: "not checked against the snippet kept", as for a quote with no source text. Not true,
 * which promises offsets that select the quote in the snippet (the UI highlights them); not
 * false, which shows the quote as not found in its source. A quote found nowhere stays false.
 * Read back from storage, the cut quote is no longer over the cap and is checked against the
 * stored snippet as any other quote.
 */
export function boundSnippet(
  snippet: string | null,
  quote: Quote | null,
): { snippet: string | null; quote: Quote | null } {
  const span = quote && quote.start !== null && quote.end !== null ? { start: quote.start, end: quote.end } : null;
  const whole = quote !== null && quote.text.length <= MAX_SNIPPET && (!span || span.end - span.start <= MAX_SNIPPET);
  const kept: Quote | null =
    quote === null || whole
      ? quote
      : {
          text: cutStart(quote.text, MAX_SNIPPET),
          start: null,
          end: null,
          verbatim: quote.verbatim === false ? false : null,
        };
  if (snippet === null || snippet.length <= MAX_SNIPPET) return { snippet, quote: kept };
  let from = span ? Math.max(0, Math.min(span.start, span.end - MAX_SNIPPET)) : 0;
  let to = from + MAX_SNIPPET;
  if (isLowSurrogate(snippet.charCodeAt(from))) from++;
  if (isHighSurrogate(snippet.charCodeAt(to - 1))) to--;
  return {
    snippet: snippet.slice(from, to),
    quote: kept && span && whole ? { ...kept, start: span.start - from, end: span.end - from } : kept,
  };
}
