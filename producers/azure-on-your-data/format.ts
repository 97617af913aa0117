/**
 * Azure OpenAI "On Your Data": `message.context` (or `delta.context` when streaming) with
 * `citations` and, when asked for, `all_retrieved_documents` carrying the search scores.
 * `[docN]` in the answer is the N-th citation. Like the owndev Open WebUI pipeline, scores are
 * copied onto citations by matching title, then file path, then chunk id, then content.
 */

import {
  arr,
  firstChoice,
  isObject,
  type JsonObject,
  num,
  obj,
  objects,
  parseJsonString,
  str,
} from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

/** The context object: current API, or the pre-2024 `role: "tool"` message holding it as JSON. */
function contextOf(payload: JsonObject): JsonObject | null {
  const choice = firstChoice(payload);
  const context = obj(obj(choice?.message)?.context) ?? obj(obj(choice?.delta)?.context) ?? obj(payload.context);
  if (context) return context;
  for (const message of objects(choice?.messages)) {
    const legacy = message.role === 'tool' ? obj(parseJsonString(message.content)) : null;
    if (legacy) return legacy;
  }
  return null;
}

const sameDocument = (a: JsonObject, b: JsonObject): boolean =>
  (str(a.title) !== null && a.title === b.title && (a.chunk_id ?? null) === (b.chunk_id ?? null)) ||
  (str(a.filepath) !== null && a.filepath === b.filepath && (a.chunk_id ?? null) === (b.chunk_id ?? null)) ||
  (typeof a.content === 'string' &&
    typeof b.content === 'string' &&
    a.content.slice(0, 100) === b.content.slice(0, 100));

function draft(doc: JsonObject, ref: number, scored: JsonObject | undefined): Draft {
  const rerank = num(scored?.rerank_score);
  const search = num(scored?.original_search_score);
  const url = str(doc.url);
  const chunk = str(doc.chunk_id) ?? (typeof doc.chunk_id === 'number' ? String(doc.chunk_id) : null);
  return {
    id: `${url ?? str(doc.filepath) ?? str(doc.title) ?? `doc${ref}`}#${chunk ?? ''}`,
    title: str(doc.title),
    file: str(doc.filepath),
    url,
    snippet: str(doc.content),
    score: rerank ?? search,
    scoreKind: rerank !== null ? 'reranker' : search !== null ? 'bm25' : null,
    kind: 'document',
    refs: [ref],
  };
}

export const azureOnYourData: Format = {
  name: 'azure-on-your-data',
  extract(payload) {
    const context = contextOf(payload);
    if (!context) return null;
    const retrieved = objects(context.all_retrieved_documents);
    const cited = arr(context.citations).filter(isObject);
    if (cited.length > 0) {
      const drafts = cited.map((doc, i) =>
        draft(
          doc,
          i + 1,
          retrieved.find((r) => sameDocument(doc, r)),
        ),
      );
      return { drafts, ordered: true };
    }
    // Only the retrieved documents: those the service kept (no filter_reason), best first.
    const kept = retrieved.filter((doc) => doc.filter_reason === null || doc.filter_reason === undefined);
    return kept.length ? { drafts: kept.map((doc, i) => draft(doc, i + 1, doc)), ordered: false } : null;
  },
};
