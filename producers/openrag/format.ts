/**
 * OpenRAG: a top-level `extra` holding `{"sources": […]}` as a JSON *string* ("{}" while
 * streaming). Documents link to their file and chunk; `relevance_score` is the reranker's raw
 * score. The answer has no inline markers: the list is already the cited sources, in order.
 * Milvus `_id`s exceed 2^53 and lose precision in JSON.parse, so identity is the chunk URL.
 */

import { int, num, obj, objects, parseJsonString, str } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

export const openrag: Format = {
  name: 'openrag',
  extract(payload) {
    if (payload.extra === undefined || payload.extra === null || payload.extra === '' || payload.extra === '{}')
      return null;
    const extra = obj(parseJsonString(payload.extra));
    if (extra && (!('sources' in extra) || (Array.isArray(extra.sources) && extra.sources.length === 0))) return null;
    const sources = objects(extra?.sources);
    if (sources.length === 0) return { drafts: [], ordered: true }; // not JSON, not an object, or nothing readable
    const drafts = sources.map((source, i): Draft => {
      const web = source.source_type === 'web' || (!source.file_url && !source.chunk_url && str(source.url) !== null);
      const page = int(source.page);
      const url = str(source.file_url) ?? str(source.url);
      return {
        // A document without a chunk URL: its file and page; a web page: its address.
        id:
          str(source.chunk_url) ??
          (web && url ? url : `${url ?? str(source.filename) ?? `source${i + 1}`}#${page ?? ''}`),
        title: str(source.title),
        file: str(source.filename) ?? str(source.source),
        url,
        snippet: str(source.snippet) ?? str(source.page_content),
        score: num(source.relevance_score),
        scoreKind: 'reranker',
        page,
        kind: web ? 'web' : 'document',
        refs: [i + 1],
      };
    });
    return { drafts, ordered: true };
  },
};
