/**
 * How citations are stored on a message: ONE Open WebUI `source` event whose documents are
 * the citations, in order. Open WebUI groups documents by `metadata.source`, so its own view
 * lists them one by one, numbered as here (under distinct names: core/names.ts);
 * `metadata.owc` keeps the normalised citation, so a reload needs no raw data. One event,
 * because Open WebUI appends sources read-modify-write.
 */

import { type Citation, distinctNames, isOwnSource, isWebUrl, STORED_KEY } from '../core/index.js';

export interface NativeSource {
  source: { id: string; name: string };
  document: string[];
  metadata: Array<Record<string, unknown>>;
  distances?: number[];
}

export function toNativeSource(citations: readonly Citation[]): NativeSource {
  const similarity = citations.every((c) => c.scoreKind === 'similarity' && c.score !== null);
  const names = distinctNames(citations);
  return {
    source: { id: 'owui-citations', name: 'Citations' },
    document: citations.map((c) => c.snippet ?? c.quote?.text ?? c.title),
    metadata: citations.map(({ index: _index, ...citation }, i) => ({
      source: citation.id,
      name: names[i],
      external: true, // keeps `name` as the label where Open WebUI would show a URL id instead
      ...(isWebUrl(citation.url) ? { url: citation.url, source_url: citation.url } : {}),
      ...(citation.page !== null ? { page: citation.page - 1 } : {}), // Open WebUI counts pages from 0
      [STORED_KEY]: citation,
    })),
    ...(similarity ? { distances: citations.map((c) => c.score!) } : {}),
  };
}

/** Whether a stored message already holds citations stored by this extension. */
export function hasStoredCitations(sources: unknown): boolean {
  return Array.isArray(sources) && sources.some(isOwnSource);
}
