/** How a citation's facts read to a person: score by its kind, pages, where it comes from. */

import { type Citation, hostOf, sourceLink } from '../core/index.js';
import { t } from './i18n.js';

/** A 0–1 similarity reads as a percentage; any other score as the number it is. */
export function scoreText(citation: Citation): string | null {
  if (citation.score === null || citation.scoreKind === null) return null;
  if (citation.scoreKind === 'similarity') return t('similarity', { n: `${Math.round(citation.score * 100)} %` });
  return t(citation.scoreKind, { n: Number(citation.score.toFixed(2)) });
}

export function pageText(citation: Citation): string | null {
  if (citation.page === null) return null;
  if (citation.pages.length > 1) return citation.pages.map((n) => t('page', { n })).join(', '); // merged chunks
  return citation.pageEnd !== null
    ? t('pages', { from: citation.page, to: citation.pageEnd })
    : t('page', { n: citation.page });
}

/** A link made absolute against this page, for a file or the clipboard (read elsewhere); null if it is none. */
export function absoluteUrl(url: string): string | null {
  try {
    return new URL(url, location.href).href;
  } catch {
    return null;
  }
}

/** Where a source opens (sourceLink), absolute. */
export function absoluteLink(citation: Citation): string | null {
  const link = sourceLink(citation);
  return link && absoluteUrl(link);
}

/** "nasa.gov", or the file name for documents without a web address. */
export function origin(citation: Citation): string | null {
  return hostOf(citation.url) ?? (citation.url ? citation.url.split('/').pop() || null : null);
}

/** A plain-text reference, for "copy citation". */
export function citationText(citation: Citation): string {
  return [
    `[${citation.index}] ${citation.title}`,
    pageText(citation),
    citation.url,
    citation.quote ? `“${citation.quote.text}”` : null,
  ]
    .filter(Boolean)
    .join(' — ');
}
