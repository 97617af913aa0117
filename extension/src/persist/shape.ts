/**
 * How citations are stored on a message: ONE Open WebUI `source` event whose documents are
 * the citations, in order. Open WebUI groups documents by `metadata.source`, so its own view
 * lists them one by one, numbered as here (under distinct names: core/names.ts);
 * `metadata.owc` keeps the normalised citation, so a reload needs no raw data. One event,
 * because Open WebUI appends sources read-modify-write.
 */

import { type Citation, distinctNames, isOwnSource, isUntitledSource, isWebUrl, STORED_KEY } from '../core/index.js';
import { isObject, type JsonObject } from '../core/json.js';

// What one answer adds to its chat is stored for good and loaded at every opening of the
// chat: its event never takes more than this many characters of JSON.
export const MAX_EVENT_CHARS = 512 * 1024;

const OURS = { id: 'owui-citations', name: 'Citations' } as const;

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
    source: { ...OURS },
    document: citations.map((c) => c.snippet ?? c.quote?.text ?? c.title),
    metadata: citations.map(({ index: _index, ...citation }, i) => ({
      source: citation.id,
      name: names[i],
      external: true, // keeps `name` as the label where Open WebUI would show a URL id instead
      ...(isWebUrl(citation.url) ? { url: citation.url, source_url: citation.url } : {}),
      ...(citation.page !== null ? { page: citation.page - 1 } : {}), // Open WebUI counts pages from 0
      [STORED_KEY]: isUntitledSource(citation.title) ? { ...citation, title: '' } : citation,
    })),
    ...(similarity ? { distances: citations.map((c) => c.score!) } : {}),
  };
}

/** The source event stored for an answer, within MAX_EVENT_CHARS: when the whole is larger,
 * the snippets go first (a quote stays, without its place in them), then the last sources. */
export function sourceEventBody(citations: readonly Citation[]): string {
  const body = (kept: readonly Citation[]): string => JSON.stringify({ type: 'source', data: toNativeSource(kept) });
  const whole = body(citations);
  if (whole.length <= MAX_EVENT_CHARS) return whole;
  const bare = citations.map((c) => ({
    ...c,
    snippet: null,
    quote: c.quote && { ...c.quote, start: null, end: null },
  }));
  // The most sources that fit, found by halving: each try serialises at most every source once.
  let fits = 0;
  let over = bare.length + 1;
  while (over - fits > 1) {
    const middle = (fits + over) >> 1;
    if (body(bare.slice(0, middle)).length <= MAX_EVENT_CHARS) fits = middle;
    else over = middle;
  }
  return body(bare.slice(0, fits));
}

const EVENT_KEYS = new Set(['type', 'data']);
const SOURCE_KEYS = new Set(['source', 'document', 'metadata', 'distances']);
const METADATA_KEYS = new Set(['source', 'name', 'external', 'url', 'source_url', 'page', STORED_KEY]);

const keysWithin = (value: JsonObject, allowed: ReadonlySet<string>): boolean =>
  Object.keys(value).every((key) => allowed.has(key));

/** One document's metadata as toNativeSource writes it: its citation, a link only to the web. */
const isOurMetadata = (value: unknown): boolean =>
  isObject(value) &&
  keysWithin(value, METADATA_KEYS) &&
  isObject(value[STORED_KEY]) &&
  (value.url === undefined || (isWebUrl(value.url) && value.source_url === value.url));

/** Whether `body` is a source event as sourceEventBody builds it, and nothing else. The outbox
 * (localStorage, anyone's to write) hands bodies on to be posted as they are: a `message` or
 * `replace` event there would rewrite the answer, another source event forge one. */
export function isSourceEventBody(body: string): boolean {
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    return false;
  }
  if (!isObject(event) || !keysWithin(event, EVENT_KEYS) || event.type !== 'source' || !isObject(event.data)) {
    return false;
  }
  const { source, document, metadata, distances } = event.data;
  return (
    keysWithin(event.data, SOURCE_KEYS) &&
    isObject(source) &&
    Object.keys(source).length === 2 &&
    source.id === OURS.id &&
    source.name === OURS.name &&
    Array.isArray(document) &&
    document.every((text) => typeof text === 'string') &&
    Array.isArray(metadata) &&
    metadata.length === document.length &&
    metadata.every(isOurMetadata) &&
    (distances === undefined ||
      (Array.isArray(distances) &&
        distances.length === document.length &&
        distances.every((d) => typeof d === 'number')))
  );
}

/** Whether a stored message holds any source, Open WebUI's own or ours. */
export function hasSources(sources: unknown): boolean {
  return Array.isArray(sources) && sources.length > 0;
}

/** Whether a stored message already holds citations stored by this extension. */
export function hasStoredCitations(sources: unknown): boolean {
  return Array.isArray(sources) && sources.some(isOwnSource);
}
