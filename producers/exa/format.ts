/**
 * Exa's OpenAI-compatible `/chat/completions` (models `exa`, `exa-pro`), which answers through
 * its `/answer` endpoint: `message.citations`, the search results the answer used ({id, url,
 * title, author, publishedDate, text, image, favicon}, exa-openapi-spec.yaml AnswerCitation),
 * `text` being the page's full text when the request asked for it. Streamed, a top-level
 * `citations` beside `choices[0].delta` (the /answer stream as Exa's own SDKs read it). Exa
 * documents no marker in the text: a `[N]` is taken as the N-th result, as for any list.
 */

import { arr, firstChoice, isObject, type JsonObject, obj, str } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

// Keys of Exa's citation objects besides url and title: xAI's and Perplexity's `citations` are
// URL strings, the quote-grounded engines' objects carry `quote` (producers/answer-spans/format.ts, tried first).
const EXA_KEYS = ['id', 'publishedDate', 'author', 'favicon', 'image'];

const isExaCitation = (item: unknown): item is JsonObject =>
  isObject(item) && typeof item.url === 'string' && EXA_KEYS.some((key) => key in item);

function draft(citation: JsonObject, i: number): Draft {
  const url = str(citation.url);
  return {
    id: url ?? str(citation.id) ?? `citation${i + 1}`,
    title: str(citation.title),
    url,
    snippet: str(citation.text),
    date: str(citation.publishedDate),
    kind: 'web',
    refs: [i + 1],
  };
}

export const exa: Format = {
  name: 'exa',
  extract(payload) {
    const message = obj(firstChoice(payload)?.message) ?? obj(firstChoice(payload)?.delta);
    const citations = arr(Array.isArray(message?.citations) ? message.citations : payload.citations);
    if (!citations.some(isExaCitation)) return null;
    // Numbered by place in Exa's list, whatever else the list holds.
    return {
      drafts: citations.flatMap((citation, i) => (isObject(citation) ? [draft(citation, i)] : [])),
      ordered: true,
    };
  },
};
