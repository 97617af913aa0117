/**
 * OpenAI Responses API: flat annotations on `output[].content[]` parts of type output_text —
 * url_citation {url, title, start_index, end_index} and file_citation {file_id, filename,
 * index}. With the web_search tool and `include: ["web_search_call.action.sources"]`, each
 * `web_search_call` output item's `action` lists the pages it consulted (`search`: `sources[]`
 * of {type: "url", url}; `open_page` and `find_in_page`: one `url`): those the annotations do not
 * cite follow the cited ones, without spans, so they read as retrieved, not cited. Also reads the
 * `response.output_text.annotation.added`, `response.output_item.done` and `response.completed`
 * stream events on their own.
 */

import { draftsFromAnnotations } from '../../extension/src/core/annotations.js';
import { arr, distinctList, int, isObject, type JsonObject, obj, objects, str } from '../../extension/src/core/json.js';
import { MAX_CITATIONS } from '../../extension/src/core/limits.js';
import type { Draft, Format, StreamPart } from '../../extension/src/core/model.js';
import { safeUrl } from '../../extension/src/core/urls.js';

function outputOf(payload: JsonObject): unknown[] | null {
  if (payload.type === 'response.output_item.done') return isObject(payload.item) ? [payload.item] : [];
  const response = payload.type === 'response.completed' ? obj(payload.response) : payload;
  return response && Array.isArray(response.output) ? response.output : null;
}

function annotationsOf(output: unknown[]): unknown[] {
  return objects(output)
    .flatMap((item) => objects(item.content))
    .flatMap((part) => (part.type === 'output_text' && Array.isArray(part.annotations) ? part.annotations : []));
}

/** A URL as compared with the others: OpenAI adds `utm_source=openai` to the links it cites. */
const untagged = (url: string): string =>
  url.replace(/([?&])utm_source=openai(?:&|(?=#|$))/, '$1').replace(/[?&](?=#|$)/, '');

/** Every page the web_search_call items consulted, in order, each once (by its untagged URL),
 * at most MAX_CITATIONS. A page is only its address: one that is no safe link is not kept. */
function searchedUrls(output: unknown[]): Map<string, string> {
  const urls = new Map<string, string>();
  for (const item of output) {
    const action = isObject(item) && item.type === 'web_search_call' ? obj(item.action) : null;
    if (!action) continue;
    const pages = Array.isArray(action.sources) ? [action, ...action.sources] : [action];
    for (const page of pages) {
      if (urls.size >= MAX_CITATIONS) return urls;
      // A source of type "api" (oai-weather, …) names a data feed, not a page: it has no url.
      const url = isObject(page) ? safeUrl(page.url) : null;
      const key = url && untagged(url);
      if (key && !urls.has(key)) urls.set(key, url);
    }
  }
  return urls;
}

function fileDraft(annotation: JsonObject, ref: number): Draft | null {
  const fileId = str(annotation.file_id);
  if (!fileId || (annotation.type !== 'file_citation' && annotation.type !== 'container_file_citation')) return null;
  const start = int(annotation.start_index) ?? int(annotation.index);
  const end = int(annotation.end_index) ?? start;
  return {
    id: `file:${fileId}`,
    file: str(annotation.filename) ?? fileId,
    kind: 'file',
    refs: [ref],
    anchors: start !== null && end !== null ? [{ start, end, unit: 'codePoints' }] : [],
  };
}

/** The Responses API's stream is typed events, not chunks: its text deltas, its annotations, its
 * web_search_call items by id (`.done` replaces `.added`: the pages searched), and the whole
 * response once completed, which stands for the rest (but Open WebUI drops `output` from a later
 * round's response.completed: then the items streamed stand for it). */
function responsesStream(): StreamPart {
  const annotations = distinctList();
  const searchCalls = new Map<string, JsonObject>();
  let completed: JsonObject | null = null;
  return {
    takes(chunk, stream) {
      if (typeof chunk.type !== 'string' || !chunk.type.startsWith('response.')) return false;
      if (chunk.type === 'response.output_text.delta' && typeof chunk.delta === 'string') stream.add(chunk.delta);
      if (chunk.type === 'response.output_text.annotation.added') annotations.add([chunk.annotation]);
      const item = obj(chunk.item);
      if (item?.type === 'web_search_call' && chunk.type.startsWith('response.output_item.')) {
        const key = typeof item.id === 'string' ? item.id : `#${searchCalls.size}`;
        if (searchCalls.has(key) || searchCalls.size < MAX_CITATIONS) searchCalls.set(key, item);
      }
      if (chunk.type === 'response.completed' && isObject(chunk.response)) completed = chunk.response;
      return true;
    },
    into(body, _message, text) {
      if (completed && (arr(completed.output).length > 0 || searchCalls.size === 0)) return completed;
      if (annotations.values.length || searchCalls.size)
        body.output = [
          ...searchCalls.values(),
          { type: 'message', content: [{ type: 'output_text', text, annotations: annotations.values }] },
        ];
      return undefined;
    },
  };
}

export const openaiResponses: Format = {
  name: 'openai-responses',
  stream: responsesStream,
  extract(payload) {
    const annotated = payload.type === 'response.output_text.annotation.added';
    const output = annotated ? [] : outputOf(payload);
    if (output === null) return null;
    const annotations = annotated ? (isObject(payload.annotation) ? [payload.annotation] : []) : annotationsOf(output);
    const drafts = draftsFromAnnotations(annotations, 'codePoints');
    for (const annotation of objects(annotations)) {
      const file = fileDraft(annotation, drafts.length + 1);
      if (file) drafts.push(file);
    }
    const cited = new Set(drafts.map((d) => untagged(safeUrl(d.url) ?? d.id)));
    for (const [key, url] of searchedUrls(output)) {
      if (!cited.has(key)) drafts.push({ id: url, url, kind: 'web', refs: [], anchors: [] });
    }
    return drafts.length ? { drafts, ordered: true } : null;
  },
};
