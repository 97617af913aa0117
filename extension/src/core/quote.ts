/** Checks a quote against its source text: is it really there, and where. */

import type { OffsetUnit, Quote } from './model.js';
import { spanToUtf16 } from './offsets.js';

const UNITS: OffsetUnit[] = ['utf8', 'codePoints', 'utf16'];

/** Finds `quote` in `text` ignoring differences of white space; UTF-16 [start, end) or null. */
function findLoosely(text: string, quote: string): [number, number] | null {
  const words = quote.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const match = new RegExp(escaped.join('\\s+')).exec(text);
  return match ? [match.index, match.index + match[0].length] : null;
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
      if (span && source.slice(span[0], span[1]) === text) return { text, start: span[0], end: span[1], verbatim: true };
    }
  }
  const exact = text === '' ? -1 : source.indexOf(text);
  const found: [number, number] | null = exact >= 0 ? [exact, exact + text.length] : findLoosely(source, text);
  return found ? { text, start: found[0], end: found[1], verbatim: true } : { text, start: null, end: null, verbatim: false };
}
