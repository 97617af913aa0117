/** Checks a quote against its source text: is it really there, and where. */

import type { OffsetUnit, Quote } from './model.js';
import { spanToUtf16 } from './offsets.js';

const UNITS: OffsetUnit[] = ['utf8', 'codePoints', 'utf16'];

const SPACES = /\s+/g;
// White space other than single spaces: most texts have none, and testing costs less than replacing.
const UNUSUAL_SPACE = /[^\S ]| {2}/;
const collapseSpaces = (text: string): string => (UNUSUAL_SPACE.test(text) ? text.replace(SPACES, ' ') : text);
const isSpace = (code: number): boolean => /\s/.test(String.fromCharCode(code));

/** Where the character at `index` of `collapseSpaces(text)` stands in `text`: one walk, only on a match. */
function originOf(text: string, indices: number[]): number[] {
  const found: number[] = [];
  let collapsed = 0;
  for (let i = 0; i < text.length && found.length < indices.length; i++) {
    while (found.length < indices.length && indices[found.length] === collapsed) found.push(i);
    if (isSpace(text.charCodeAt(i))) while (i + 1 < text.length && isSpace(text.charCodeAt(i + 1))) i++;
    collapsed++;
  }
  return found;
}

// A needle's first and last characters must occur on their own: checked first with the engine's own
// search, linear for so short a piece, it turns most misses (a paraphrase) away at once.
const ENDS = 32;

/** Where `needle` first occurs in `haystack` (Knuth–Morris–Pratt: linear, whatever the input), or -1. */
function search(haystack: string, needle: string): number {
  if (!haystack.includes(needle.slice(0, ENDS)) || !haystack.includes(needle.slice(-ENDS))) return -1;
  const m = needle.length;
  const codes = new Uint16Array(m);
  for (let i = 0; i < m; i++) codes[i] = needle.charCodeAt(i);
  const fallback = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    const code = codes[i]!;
    while (k > 0 && code !== codes[k]) k = fallback[k - 1]!;
    if (code === codes[k]) k++;
    fallback[i] = k;
  }
  for (let i = 0, k = 0; i < haystack.length; i++) {
    const code = haystack.charCodeAt(i);
    while (k > 0 && code !== codes[k]) k = fallback[k - 1]!;
    if (code === codes[k] && ++k === m) return i - m + 1;
  }
  return -1;
}

/**
 * Finds `quote` in `text` ignoring differences of white space; UTF-16 [start, end) or null.
 * Linear in both lengths: the texts are compared with their white space collapsed, no pattern
 * is built from the untrusted quote.
 */
function findLoosely(text: string, quote: string): [number, number] | null {
  const needle = collapseSpaces(quote.trim());
  if (needle === '' || needle.length > text.length) return null;
  const at = search(collapseSpaces(text), needle);
  if (at < 0) return null;
  const [start, last] = originOf(text, [at, at + needle.length - 1]);
  return [start!, last! + 1];
}

/**
 * `verbatim` is true only when the quote occurs in the source text (exactly, or with other
 * white space). Given offsets are kept when they select the quote in some unit; wrong or
 * missing (-1) offsets are recomputed from the text.
 */
export function verifyQuote(text: string, start: number | null, end: number | null, source: string | null): Quote {
  if (source === null) return { text, start: null, end: null, verbatim: null };
  if (start !== null && end !== null && start >= 0) {
    for (const unit of UNITS) {
      const span = spanToUtf16(source, start, end, unit);
      if (span && source.slice(span[0], span[1]) === text)
        return { text, start: span[0], end: span[1], verbatim: true };
    }
  }
  const exact = text === '' ? -1 : source.indexOf(text);
  const found: [number, number] | null = exact >= 0 ? [exact, exact + text.length] : findLoosely(source, text);
  return found
    ? { text, start: found[0], end: found[1], verbatim: true }
    : { text, start: null, end: null, verbatim: false };
}
