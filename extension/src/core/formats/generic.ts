/**
 * The reader of last resort, for a backend no format knows: a list in which EVERY item looks
 * like a source — an http(s) address or a document's name, with a title or text beside it —
 * at the top level, in the message or delta, or in a JSON string there. It must never misfire
 * on an ordinary payload (a corpus of them is tested), so it gives up at the first doubt: a
 * list with any other item, a field known to hold something else, or sources of several lists.
 * `[N]` is the N-th source. The field it read is reported, for the backend's author.
 */

import { firstChoice, isObject, type JsonObject, obj, parseJsonString, str } from '../json.js';
import type { Draft, Format } from '../model.js';
import { safeUrl } from '../urls.js';

// Fields whose lists hold something else: tool calls, images, files, log probabilities, Open
// WebUI's own events and what the other formats already read.
const NOT_SOURCES = new Set([
  'choices',
  'usage',
  'tool_calls',
  'function_call',
  'logprobs',
  'content',
  'refusal',
  'audio',
  'images',
  'files',
  'embeds',
  'data',
  'output',
  'input',
  'messages',
  'status',
  'statusHistory',
  'follow_ups',
  'tags',
  'models',
  'reasoning_details',
  'prompt_filter_results',
  'content_filter_results',
  'annotations',
  'sources',
  'citations',
  'items',
  'urls', // Open WebUI's web search progress (status events): what it searched, not what it cites
]);
const URL_KEYS = ['url', 'uri', 'link', 'href', 'source_url'];
const NAME_KEYS = ['document_name', 'doc_name', 'file_name', 'filename', 'source'];
const TITLE_KEYS = ['title', 'name', 'document_title'];
const TEXT_KEYS = ['snippet', 'content', 'text', 'chunk', 'page_content', 'excerpt', 'summary'];

const first = (item: JsonObject, keys: string[]): string | null => {
  for (const key of keys) {
    const value = str(item[key]);
    if (value) return value;
  }
  return null;
};

function asSource(item: unknown, i: number): Draft | null {
  if (!isObject(item)) return null;
  const url = first(item, URL_KEYS);
  const name = first(item, NAME_KEYS);
  const web = url !== null && safeUrl(url) !== null && /^https?:/i.test(url);
  if (!web && !name) return null;
  const title = first(item, TITLE_KEYS);
  const text = first(item, TEXT_KEYS);
  if (!title && !text) return null;
  return {
    id: web ? url! : `${name}#${i}`,
    title,
    file: name,
    url: web ? url : null,
    snippet: text,
    kind: web ? 'web' : 'document',
    refs: [i + 1],
  };
}

/** The candidate lists: field name → value, in the places a producer puts its own fields. */
function candidates(payload: JsonObject): Array<[string, unknown]> {
  const message = obj(firstChoice(payload)?.message) ?? obj(firstChoice(payload)?.delta);
  const places: Array<[string, JsonObject | null]> = [
    ['', payload],
    ['message.', message],
  ];
  return places.flatMap(([prefix, place]) =>
    Object.entries(place ?? {}).flatMap(
      ([key, value]): Array<[string, unknown]> =>
        NOT_SOURCES.has(key)
          ? []
          : [[prefix + key, typeof value === 'string' && /^\s*[[{]/.test(value) ? parseJsonString(value) : value]],
    ),
  );
}

export const generic: Format = {
  name: 'generic',
  extract(payload) {
    // API lists, Open WebUI events
    if (payload.object === 'list' || (typeof payload.type === 'string' && !payload.choices)) return null;
    const found: Array<{ field: string; drafts: Draft[] }> = [];
    for (const [field, value] of candidates(payload)) {
      const list = Array.isArray(value)
        ? value
        : Array.isArray(obj(value)?.sources)
          ? (obj(value)!.sources as unknown[])
          : null;
      if (!list || list.length === 0) continue;
      const drafts = list.map(asSource);
      if (drafts.every((d): d is Draft => d !== null))
        found.push({ field: Array.isArray(value) ? field : `${field}.sources`, drafts });
    }
    if (found.length !== 1) return null; // none, or several lists: which one holds the sources is a guess
    return { drafts: found[0]!.drafts, ordered: true, field: found[0]!.field };
  },
};
