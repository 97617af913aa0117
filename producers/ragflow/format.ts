/**
 * RAGFlow: chat assistants put a list of retrieved chunks in `message.reference` (streamed:
 * `delta.reference` on the finish chunk, beside `final_content`), agents an object
 * `{chunks: {"<n>": chunk}, doc_aggs}`. `[ID:n]` in the answer is chunk n (0-based; the
 * agent's key). Each chunk is its own source: a marker cites that passage, not its whole
 * document, so the button shows the text the answer rests on.
 */

import { arr, firstChoice, int, isObject, type JsonObject, num, obj, str } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

/** The chunks with the number `[ID:n]` gives each: the list's index, or the agent's key. */
function numberedChunks(reference: unknown): Array<[number, JsonObject]> | null {
  if (Array.isArray(reference))
    return reference.flatMap((chunk, i): Array<[number, JsonObject]> => (isObject(chunk) ? [[i, chunk]] : []));
  const chunks = obj(obj(reference)?.chunks);
  if (!chunks) return null;
  return Object.entries(chunks).flatMap(([key, chunk]): Array<[number, JsonObject]> => {
    const n = int(key);
    return n !== null && n >= 0 && isObject(chunk) ? [[n, chunk]] : [];
  });
}

/** `positions` holds one [page, left, right, top, bottom] box per place the chunk was read from. */
const pagesOf = (chunk: JsonObject): number[] =>
  arr(chunk.positions)
    .map((box) => int(arr(box)[0]))
    .filter((page): page is number => page !== null && page > 0);

function draft(chunk: JsonObject, n: number): Draft {
  const url = str(chunk.url);
  const pages = pagesOf(chunk);
  return {
    id: str(chunk.id) ?? `${str(chunk.document_id) ?? url ?? 'chunk'}#${n}`,
    title: str(chunk.document_name) ?? str(chunk.docnm_kwd),
    url,
    snippet: str(chunk.content) ?? str(chunk.content_with_weight),
    score: num(chunk.similarity),
    scoreKind: 'similarity',
    page: pages.length ? Math.min(...pages) : null,
    pageEnd: pages.length ? Math.max(...pages) : null,
    kind: url ? 'web' : 'document',
    refs: [n],
  };
}

export const ragflow: Format = {
  name: 'ragflow',
  extract(payload) {
    const message = obj(firstChoice(payload)?.message) ?? obj(firstChoice(payload)?.delta);
    const reference = message?.reference;
    if (reference === undefined || reference === null || (Array.isArray(reference) && reference.length === 0))
      return null;
    const chunks = numberedChunks(reference) ?? []; // neither a list nor {chunks}: unreadable
    // The agent's keys are hashes, and a parsed object lists integer keys in ascending order,
    // not the producer's: its chunks are ranked by score instead.
    return { drafts: chunks.map(([n, chunk]) => draft(chunk, n)), ordered: Array.isArray(reference) };
  },
};
