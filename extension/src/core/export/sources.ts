/** What every export reads: a chat's answers with their sources, and a bibliography's entries
 * (each source once, however many answers cite it). */

import type { Citation, CitationKind } from '../model.js';
import { fileName, hostOf, isWebUrl } from '../urls.js';

export interface ExportedAnswer {
  /** The question it answers, when known. */
  question: string | null;
  /** The answer's markdown. */
  text: string;
  citations: readonly Citation[];
}

export interface Entry {
  /** A key of its own in the file: `source1`, `source2`, … */
  key: string;
  kind: CitationKind;
  title: string;
  /** Absolute http(s), or null. */
  url: string | null;
  /** The site a web source is on, or the file a document is. */
  container: string | null;
  /** "3", "3-5", "3, 7". */
  pages: string | null;
  /** As the producer wrote it. */
  date: string | null;
  quote: string | null;
  snippet: string | null;
}

/** One line of plain text: what a field of a file format can hold. Every line break Unicode knows
 * is a blank here: JS's `\s` has CR, LF, VT, FF, U+2028 and U+2029, and the control characters
 * `\p{Cc}` add U+0085 and U+001C–U+001E, at which Python's `str.splitlines` breaks a line. */
export const oneLine = (text: string | null | undefined): string => (text ?? '').replace(/[\s\p{Cc}]+/gu, ' ').trim();

export function pagesOf(citation: Citation): string | null {
  if (citation.page === null) return null;
  if (citation.pages.length > 1) return citation.pages.join(', ');
  return citation.pageEnd !== null ? `${citation.page}-${citation.pageEnd}` : String(citation.page);
}

function containerOf(citation: Citation): string | null {
  const host = hostOf(citation.url);
  if (host) return host;
  const file = citation.url ? fileName(citation.url) : null;
  return file && file !== citation.title ? file : null;
}

const identity = (citation: Citation): string => citation.url ?? `${citation.title}\u0000${citation.id}`;

/** Every source of the answers once, in the order first cited; `absolute` makes a link absolute. */
export function bibliography(answers: readonly ExportedAnswer[], absolute: (url: string) => string | null): Entry[] {
  const seen = new Set<string>();
  const entries: Entry[] = [];
  for (const answer of answers) {
    for (const citation of answer.citations) {
      const key = identity(citation);
      if (seen.has(key)) continue;
      seen.add(key);
      const url = citation.url ? absolute(citation.url) : null;
      entries.push({
        key: `source${entries.length + 1}`,
        kind: citation.kind,
        title: oneLine(citation.title) || `Source ${citation.index}`,
        url: url && isWebUrl(url) ? url : null,
        container: oneLine(containerOf(citation)) || null,
        pages: pagesOf(citation),
        date: oneLine(citation.date) || null,
        quote: oneLine(citation.quote?.text) || null,
        snippet: oneLine(citation.snippet) || null,
      });
    }
  }
  return entries;
}

// `2024`, `2024-05`, `2024-05-01`, optionally with a time of day after it, and nothing else.
const ISO_DATE =
  /^(\d{4})(?:-(0[1-9]|1[0-2])(?:-(0[1-9]|[12]\d|3[01]))?)?(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A date the producer wrote as ISO (`2024`, `2024-05`, `2024-05-01`, a time after it), as its
 * parts; anything else (`May 2024`, `2024T},a=1`) is null. */
export function dateParts(date: string | null): number[] | null {
  const match = date ? ISO_DATE.exec(date) : null;
  return match ? match.slice(1).filter(Boolean).map(Number) : null;
}

/** The date as `YYYY[-MM[-DD]]`, written from its validated parts, or null. */
export function isoDate(date: string | null): string | null {
  return (
    dateParts(date)
      ?.map((part) => String(part).padStart(2, '0'))
      .join('-') ?? null
  );
}

/** The day as ISO: `2026-11-27`. */
export const isoDay = (day: Date): string => day.toISOString().slice(0, 10);
