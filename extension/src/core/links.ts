/**
 * Where a source's link opens: a PDF at its page (as Open WebUI's own source view does), a web
 * page at the passage the answer relies on, through a text fragment (`#:~:text=`), where the
 * source's quote or snippet is known.
 */

import { cutStart } from './limits.js';
import type { Citation } from './model.js';
import { isWebUrl } from './urls.js';

// Enough words to find the passage, few enough that a small difference between the producer's
// copy and the page (a changed word, markup between words) does not lose the match.
const WHOLE_UP_TO = 10;
const EDGE_WORDS = 5;
const RANGE_UP_TO = 60;
// The evidence read, at most: the work stays small however long a snippet is.
const READ_AT_MOST = 2_000;

// Half of a surrogate pair alone, which encodeURIComponent throws on.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A piece of a text directive: percent-encoded, with its own syntax characters (`-`, `,`, `&`) too. */
const encodePart = (words: readonly string[]): string =>
  encodeURIComponent(words.join(' ').replace(LONE_SURROGATE, '\uFFFD')).replace(/-/g, '%2D');

// Blanks, dots, ellipses and quote marks: what is left out at the ends of the evidence.
const EDGE = /[\s.…"“”'‘’«»]/;

/** The words of the evidence as a page shows them: no markdown marks, no ellipses at the ends. */
function evidenceWords(text: string): string[] {
  // Not between the halves of a surrogate pair (an emoji across the limit).
  const marked = cutStart(text, READ_AT_MOST).replace(/\*\*|__|`/g, '');
  // The ends trimmed by hand: /[…]+$/ would try every position of a run inside the text, to its end.
  let from = 0;
  let to = marked.length;
  while (from < to && EDGE.test(marked[from]!)) from++;
  while (to > from && EDGE.test(marked[to - 1]!)) to--;
  return marked.slice(from, to).split(/\s+/).filter(Boolean);
}

/** `#:~:text=…` for a passage: the whole of a short one, its first and last words for a longer one. */
export function textDirective(evidence: string): string | null {
  const words = evidenceWords(evidence);
  if (words.length === 0) return null;
  if (words.length <= WHOLE_UP_TO) return `:~:text=${encodePart(words)}`;
  if (words.length > RANGE_UP_TO) return `:~:text=${encodePart(words.slice(0, WHOLE_UP_TO))}`;
  return `:~:text=${encodePart(words.slice(0, EDGE_WORDS))},${encodePart(words.slice(-EDGE_WORDS))}`;
}

const PDF_NAME = /\.pdf$/i;
/** A PDF by its address, or one of Open WebUI's files (`/api/v1/files/<id>/content`) named `….pdf`. */
const isPdf = (url: string, title: string): boolean =>
  PDF_NAME.test(url.split(/[?#]/)[0]!) || (url.startsWith('/api/v1/files/') && PDF_NAME.test(title.trim()));

// Few words for pdf.js's search: a PDF's text breaks lines and hyphenates, a short phrase still finds it.
const PDF_SEARCH_WORDS = 6;

/** A PDF at its page and its passage, as each browser's viewer reads it (measured, docs/compatibility.md):
 * `page=` every viewer; `search=…&phrase=true` Firefox's (pdf.js), which finds and highlights the
 * phrase; the text directive Chromium's, which highlights it (and which Firefox strips unread). */
function pdfFragment(citation: Pick<Citation, 'page' | 'quote' | 'snippet'>): string | null {
  const evidence = citation.quote?.text ?? citation.snippet ?? '';
  const parts = citation.page !== null ? [`page=${citation.page}`] : [];
  const words = evidenceWords(evidence).slice(0, PDF_SEARCH_WORDS);
  if (words.length) parts.push(`search=${encodePart(words)}`, 'phrase=true');
  const fragment = `${parts.join('&')}${textDirective(evidence) ?? ''}`;
  return fragment || null;
}

/** The link a source opens at; the URL is one `safeUrl` kept (http(s) or same-origin relative). */
export function sourceLink(
  citation: Pick<Citation, 'url' | 'page' | 'quote' | 'snippet'> & { title?: string },
): string | null {
  const { url } = citation;
  if (!url) return null;
  if (isPdf(url, citation.title ?? '')) {
    const fragment = url.includes('#') ? null : pdfFragment(citation); // never over the producer's own
    return fragment ? `${url}#${fragment}` : url;
  }
  // Web pages only (a relative link is one of Open WebUI's files), and never a second directive.
  if (!isWebUrl(url) || url.includes(':~:')) return url;
  const directive = textDirective(citation.quote?.text ?? citation.snippet ?? '');
  if (!directive) return url;
  return url.includes('#') ? `${url}${directive}` : `${url}#${directive}`;
}
