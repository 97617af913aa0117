/**
 * Open WebUI's own sources (its RAG, web search, url_citation, tools, and what this extension
 * stores): `message.sources`, a list of {source, document[], metadata[], distances[]}.
 * Grouped and numbered exactly as Open WebUI's Citations.svelte does (by metadata.source, then
 * source.id), so `[N]` in the answer means the same source here as in Open WebUI. A citation
 * this extension stored carries its normalised form in `metadata[i].owc`, read back here with
 * the producer's own numbers.
 */

import { arr, int, isObject, type JsonObject, num, obj, objects, str } from '../json.js';
import type { Anchor, Draft, Format, ScoreKind } from '../model.js';
import { listPlace } from '../source-lists.js';
import { isWebUrl } from '../urls.js';

/** The metadata key under which this extension stores a normalised citation. */
export const STORED_KEY = 'owc';

/** Whether one of Open WebUI's stored sources (`{document[], metadata[]}`) holds a citation this
 * extension stored. */
export function isOwnSource(source: unknown): boolean {
  const metadata = obj(source)?.metadata;
  return Array.isArray(metadata) && metadata.some((m) => obj(m)?.[STORED_KEY] !== undefined);
}

const KINDS = new Set(['document', 'web', 'post', 'file', 'graph']);
const SCORE_KINDS = new Set(['similarity', 'reranker', 'bm25', 'raw']);
const UNITS = new Set(['utf16', 'codePoints', 'utf8']);

function sourceList(payload: JsonObject): JsonObject[] | null {
  if (Array.isArray(payload.sources)) return objects(payload.sources);
  if ((payload.type === 'source' || payload.type === 'citation') && isObject(payload.data)) return [payload.data];
  if (Array.isArray(payload.document) && (isObject(payload.source) || Array.isArray(payload.metadata)))
    return [payload];
  return null;
}

function anchors(value: unknown): Anchor[] {
  return objects(value).flatMap((a) => {
    const start = int(a.start);
    const end = int(a.end);
    const unit = str(a.unit);
    return start !== null && end !== null && unit && UNITS.has(unit)
      ? [{ start, end, unit: unit as Anchor['unit'] }]
      : [];
  });
}

/** A citation stored by this extension; every field is read as untrusted input again. */
function storedDraft(stored: JsonObject, ref: number): Draft | null {
  const id = str(stored.id);
  if (!id) return null;
  const quote = obj(stored.quote);
  const kind = str(stored.kind);
  const scoreKind = str(stored.scoreKind);
  // The producer's own numbers ([N] in the answer), not the position in the stored list.
  const listed = listPlace(stored.listedUnder);
  const producerRefs = arr(stored.refs)
    .map(int)
    .filter((n): n is number => n !== null && n >= 0);
  return {
    id,
    title: str(stored.title),
    url: str(stored.url),
    snippet: str(stored.snippet),
    score: num(stored.score),
    scoreKind: scoreKind && SCORE_KINDS.has(scoreKind) ? (scoreKind as ScoreKind) : null,
    page: int(stored.page),
    pageEnd: int(stored.pageEnd),
    quote: quote && str(quote.text) ? { text: str(quote.text)!, start: int(quote.start), end: int(quote.end) } : null,
    kind: kind && KINDS.has(kind) ? (kind as Draft['kind']) : 'document',
    refs: producerRefs.length ? producerRefs : [ref],
    anchors: anchors(stored.anchors),
    date: str(stored.date),
    ...(listed ? { listedUnder: listed } : {}),
  };
}

export const openWebui: Format = {
  name: 'open-webui',
  extract(payload) {
    const sources = sourceList(payload);
    if (!sources || sources.length === 0) return null;
    const groups = new Map<string, number>();
    const drafts: Draft[] = [];
    const ours = new Set<Draft>();
    const distances = sources.flatMap((s) =>
      arr(s.distances)
        .map(num)
        .filter((d): d is number => d !== null),
    );
    const scoreKind: ScoreKind = distances.every((d) => d >= 0 && d <= 1) ? 'similarity' : 'raw';
    for (const source of sources) {
      const info = obj(source.source) ?? {};
      arr(source.document).forEach((document, i) => {
        const metadata = obj(arr(source.metadata)[i]) ?? {};
        const group = str(metadata.source) ?? str(info.id) ?? 'N/A';
        if (!groups.has(group)) groups.set(group, groups.size + 1);
        const ref = groups.get(group)!;
        const stored = obj(metadata[STORED_KEY]);
        const fromStore = stored ? storedDraft(stored, ref) : null;
        if (fromStore) {
          ours.add(fromStore);
          return void drafts.push(fromStore);
        }
        const url = [str(metadata.source_url), group, str(info.url), str(metadata.url)].find(isWebUrl) ?? null;
        const name = str(metadata.name) ?? str(info.name);
        const page = int(metadata.page);
        drafts.push({
          id: group,
          title: name === url ? null : name,
          file: str(metadata.file_name) ?? (isWebUrl(group) || group === 'N/A' ? null : group),
          url,
          snippet: typeof document === 'string' ? document : null,
          score: num(arr(source.distances)[i]),
          scoreKind,
          page: page === null ? null : page + 1, // Open WebUI counts pages from 0
          kind: str(metadata.file_id) ? 'document' : url ? 'web' : 'document',
          refs: [ref],
        });
      });
    }
    // What this extension stored reads as it was shown before the reload, in its order: a source
    // Open WebUI stored itself too (its url_citation) is read from our copy, and one only Open
    // WebUI has comes after ours, so that it shifts none of their numbers.
    const storedIds = new Set([...ours].map((draft) => draft.id));
    const theirs = drafts.filter((draft) => !ours.has(draft) && !storedIds.has(draft.id));
    const kept = [...drafts.filter((draft) => ours.has(draft)), ...theirs];
    return kept.length ? { drafts: kept, ordered: true } : null;
  },
};
