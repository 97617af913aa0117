/**
 * NVIDIA RAG Blueprint (rag-server): a top-level `citations` object `{total_results, results:
 * [{document_id, document_name, document_type, content, score, metadata: {page_number, …}}]}`.
 * xAI and Perplexity also write a top-level `citations`, as a list: this one is an object.
 * Image, table and chart results carry base64 in `content`: their description is shown instead.
 * `document_id` is always empty: a result is its file, page and place in the list.
 */

import { int, num, obj, objects, str } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

const TEXT_TYPES = new Set(['text', 'document', '']);

export const nvidiaRag: Format = {
  name: 'nvidia-rag',
  extract(payload) {
    const citations = obj(payload.citations);
    if (!citations || !Array.isArray(citations.results)) return null;
    if (citations.results.length === 0) return null;
    const drafts = objects(citations.results).map((result, i): Draft => {
      const metadata = obj(result.metadata);
      const type = str(result.document_type)?.toLowerCase() ?? '';
      const page = int(metadata?.page_number);
      const name = str(result.document_name);
      return {
        id: `${str(result.document_id) ?? name ?? `result${i + 1}`}#${page ?? ''}#${TEXT_TYPES.has(type) ? '' : i}`,
        file: name,
        snippet: TEXT_TYPES.has(type) ? str(result.content) : str(metadata?.description),
        score: num(result.score),
        scoreKind: 'similarity', // the reranker's logit through a sigmoid: 0..1
        page: page !== null && page > 0 ? page : null,
        kind: 'document',
        refs: [i + 1],
      };
    });
    return { drafts, ordered: true };
  },
};
