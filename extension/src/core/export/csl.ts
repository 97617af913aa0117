/** CSL-JSON (citation-style-language/schema's csl-data.json): what Zotero, Mendeley and every
 * CSL processor import. */

import type { CitationKind } from '../model.js';
import { dateParts, type Entry, isoDay, oneLine } from './sources.js';

const TYPES: Record<CitationKind, string> = {
  web: 'webpage',
  post: 'post',
  document: 'document',
  file: 'document',
  graph: 'document',
};

const dateOf = (date: string): { 'date-parts': number[][] } | { literal: string } => {
  const parts = dateParts(date);
  return parts ? { 'date-parts': [parts] } : { literal: date };
};

export function cslJson(entries: readonly Entry[], accessed: Date): string {
  const [year, month, day] = isoDay(accessed).split('-').map(Number);
  const items = entries.map((entry) => ({
    id: entry.key,
    type: TYPES[entry.kind] ?? 'document',
    title: entry.title,
    ...(entry.url ? { URL: entry.url, accessed: { 'date-parts': [[year, month, day]] } } : {}),
    ...(entry.container ? { 'container-title': entry.container } : {}),
    ...(entry.pages ? { page: entry.pages } : {}),
    ...(entry.date ? { issued: dateOf(entry.date) } : {}),
    ...(entry.quote ? { note: `“${entry.quote}”` } : {}),
    ...(entry.snippet ? { abstract: entry.snippet } : {}),
  }));
  // Every string value, whichever field holds it, is one line: written so in this one place.
  return `${JSON.stringify(items, (_, value: unknown) => (typeof value === 'string' ? oneLine(value) : value), 2)}\n`;
}
