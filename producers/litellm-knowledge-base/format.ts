/**
 * A LiteLLM knowledge base: the LiteLLM proxy searches the vector stores a model is given
 * (`vector_store_ids`) before it asks the model, and returns what it found in
 * `message.provider_specific_fields.search_results`, one search page per store, as OpenAI's vector
 * store search answers: `{data: [{score, content: [{type, text}], file_id, filename, attributes}]}`
 * (LiteLLM turns its other stores' answers, Bedrock's, Vertex's…, into the same page). Streamed,
 * on the `delta` of the last chunk only. Each result is a chunk of a file: a source of its own (a
 * marker cites that passage), without a link. LiteLLM numbers nothing: `[N]` is read as the N-th
 * result, stores and results in order, the order in which LiteLLM writes their texts into the
 * prompt. `attributes` are the store owner's own key-values, but for the page number Bedrock's
 * Knowledge Bases put there. A result's `file_id` is its link when it is a web address (Bedrock's
 * web crawler's pages; its S3 files are `s3://` URIs, no link).
 */

import { arr, firstChoice, int, isObject, type JsonObject, num, obj, str } from '../../extension/src/core/json.js';
import { MAX_SNIPPET } from '../../extension/src/core/limits.js';
import type { Draft, Format } from '../../extension/src/core/model.js';
import { isWebUrl } from '../../extension/src/core/urls.js';

/** The attribute in which a Bedrock Knowledge Base gives a PDF chunk's page (a float: 3.0). */
const BEDROCK_PAGE = 'x-amz-bedrock-kb-document-page-number';

/** A result's text: the text of each of its content parts, as LiteLLM puts them in the prompt, one
 * per line, read until there is more than a snippet keeps. */
function textOf(content: unknown): string | null {
  let text = '';
  for (const part of arr(content)) {
    if (text.length > MAX_SNIPPET) break;
    const piece = isObject(part) ? str(part.text) : null;
    if (piece) text = text ? `${text}\n${piece}` : piece;
  }
  return text || null;
}

function draft(result: JsonObject, n: number): Draft {
  const fileId = str(result.file_id);
  const score = num(result.score);
  const page = int(obj(result.attributes)?.[BEDROCK_PAGE]);
  return {
    id: `${fileId ?? str(result.filename) ?? 'result'}#${n}`,
    file: str(result.filename) ?? fileId,
    url: isWebUrl(fileId) ? fileId : null,
    page: page !== null && page > 0 ? page : null,
    snippet: textOf(result.content),
    score,
    // OpenAI's is "the similarity score"; a number outside 0..1 is none, whatever the store.
    scoreKind: score !== null && score >= 0 && score <= 1 ? 'similarity' : 'raw',
    kind: 'file',
    refs: [n],
  };
}

export const litellmKnowledgeBase: Format = {
  name: 'litellm-knowledge-base',
  extract(payload) {
    const message = obj(firstChoice(payload)?.message) ?? obj(firstChoice(payload)?.delta);
    const pages = obj(message?.provider_specific_fields)?.search_results;
    if (pages === undefined || pages === null) return null;
    const results = arr(pages).flatMap((page) => arr(obj(page)?.data));
    if (Array.isArray(pages) && results.length === 0) return null; // the stores found nothing
    // Numbered by place among all the results, whatever else the lists hold.
    return {
      drafts: results.flatMap((result, i) => (isObject(result) ? [draft(result, i + 1)] : [])),
      ordered: true,
    };
  },
};
