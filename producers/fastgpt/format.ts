/**
 * FastGPT apps (`/api/v1/chat/completions` with `detail: true`): a top-level `responseData`, one
 * entry per workflow node run, whose dataset-search node holds `quoteList` (older versions: the AI
 * chat node too, the same quotes), each a dataset chunk {id, q, a, sourceName, sourceId,
 * collectionId, datasetId, chunkIndex, updateTime, score}. `score` is a list of {type, value, index}
 * (embedding, fullText, reRank, rrf), a number in older versions. A node run inside a tool or
 * plugin keeps its own responses in `toolDetail`, `pluginDetail` or `childrenResponses`. Asked for
 * (`retainDatasetCite`), the answer cites a quote by its id, `[<24 hex>](CITE)` (core/marker-syntax/fastgpt-cite.ts).
 * Streamed, the list comes once as `event: flowResponses` (stream.ts).
 */

import { arr, int, isObject, type JsonObject, num, str } from '../../extension/src/core/json.js';
import type { Draft, Format, ScoreKind } from '../../extension/src/core/model.js';

// Node responses read at most, nested ones included, and how deep: a hostile body of millions
// of nodes is not walked whole.
const MAX_NODES = 2000;
const MAX_DEPTH = 4;
const NESTED = ['toolDetail', 'pluginDetail', 'childrenResponses'];

/** The first score of the kind FastGPT ranks by: the reranker's, else the embedding's, … */
const SCORE_KINDS: Array<[type: string, kind: ScoreKind]> = [
  ['reRank', 'reranker'],
  ['embedding', 'similarity'],
  ['fullText', 'bm25'],
  ['rrf', 'raw'],
];

function scoreOf(value: unknown): { score: number | null; scoreKind: ScoreKind | null } {
  const single = num(value);
  if (single !== null) return { score: single, scoreKind: 'similarity' }; // older versions: the embedding's
  const scores = arr(value).slice(0, 16).filter(isObject);
  for (const [type, kind] of SCORE_KINDS) {
    const found = num(scores.find((s) => s.type === type)?.value);
    if (found !== null) return { score: found, scoreKind: kind };
  }
  return { score: null, scoreKind: null };
}

/** Every `quoteList` of the nodes, in the order they ran, nested ones after their node. */
function quoteLists(responseData: unknown[]): unknown[][] {
  const lists: unknown[][] = [];
  let seen = 0;
  const walk = (nodes: unknown[], depth: number): void => {
    for (const node of nodes) {
      if (++seen > MAX_NODES) return;
      if (!isObject(node)) continue;
      if (Array.isArray(node.quoteList)) lists.push(node.quoteList);
      if (depth < MAX_DEPTH) for (const key of NESTED) if (Array.isArray(node[key])) walk(node[key], depth + 1);
    }
  };
  walk(responseData, 0);
  return lists;
}

function draft(quote: JsonObject, n: number): Draft {
  const q = str(quote.q);
  const a = str(quote.a);
  const name = str(quote.sourceName);
  return {
    // A chunk is its own source: the answer's [id](CITE) names that chunk.
    id: str(quote.id) ?? `${str(quote.collectionId) ?? name ?? 'quote'}#${int(quote.chunkIndex) ?? n}`,
    title: name,
    file: name,
    url: null, // sourceId is a file id or a collection's own source, not a link FastGPT gives
    snippet: q && a ? `${q}\n${a}` : (q ?? a),
    ...scoreOf(quote.score),
    date: str(quote.updateTime),
    kind: 'document',
    refs: [n],
  };
}

export const fastgpt: Format = {
  name: 'fastgpt',
  extract(payload) {
    const responseData = payload.responseData;
    if (!Array.isArray(responseData)) return null;
    const lists = quoteLists(responseData);
    if (lists.length === 0) return null;
    // The same quote in several nodes (the search node and, in older versions, the chat node) is one source.
    const drafts: Draft[] = [];
    const ids = new Set<string>();
    for (const quote of lists.flat()) {
      if (!isObject(quote)) continue;
      const id = str(quote.id);
      if (id !== null && ids.has(id)) continue;
      if (id !== null) ids.add(id);
      drafts.push(draft(quote, drafts.length + 1));
    }
    return { drafts, ordered: true };
  },
};
