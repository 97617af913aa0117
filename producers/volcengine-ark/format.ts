/**
 * Volcengine Ark bots (`/api/v3/bots/chat/completions`, models `bot-…`): a top-level
 * `references` list, web search results ({url, site_name, title, summary, publish_time, …}) and
 * knowledge-base chunks ({doc_id, doc_name, doc_title, chunk_id, page_nums, summary, …}) in one
 * list, in the producer's order. `page_nums` is a string (BotChatResultReference.java, bot.go)
 * whose layout is not documented: every number in it is read as a page. `[N]` is the N-th
 * reference, as Volcengine's own deep-search bot numbers them in its prompt.
 */

import { arr, int, isObject, type JsonObject, str } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

// Keys only Ark's reference schema has: a top-level `references` list of plain {url, title}
// items stays with the reader of last resort (generic.ts).
const ARK_KEYS = [
  'site_name',
  'logo_url',
  'mobile_url',
  'cover_image',
  'publish_time',
  'collection_name',
  'doc_id',
  'doc_name',
  'doc_title',
  'chunk_id',
  'chunk_title',
  'page_nums',
  'file_name',
];
const KNOWLEDGE_KEYS = ['doc_id', 'doc_name', 'doc_title', 'chunk_id', 'chunk_title', 'collection_name', 'file_name'];
// Enough for any chunk's pages; a hostile string of millions of numbers is not read whole.
const MAX_PAGE_NUMBERS = 64;

const isArkReference = (item: unknown): item is JsonObject => isObject(item) && ARK_KEYS.some((key) => key in item);

/** The first numbers written in a text, as written. */
function numbersIn(text: string): string[] {
  const found: string[] = [];
  const digits = /\d+/g;
  for (let match = digits.exec(text); match && found.length < MAX_PAGE_NUMBERS; match = digits.exec(text))
    found.push(match[0]);
  return found;
}

/** The pages `page_nums` names, ascending: "3", "3,4", "[3, 4]"; a number or a list of them, leniently. */
function pagesOf(value: unknown): number[] {
  const given: unknown[] =
    typeof value === 'string' ? numbersIn(value) : Array.isArray(value) ? value.slice(0, MAX_PAGE_NUMBERS) : [value];
  return given
    .map(int)
    .filter((page): page is number => page !== null && page > 0)
    .sort((a, b) => a - b);
}

function draft(reference: JsonObject, i: number): Draft {
  const knowledge = KNOWLEDGE_KEYS.some((key) => str(reference[key]) !== null);
  const url = str(reference.url) ?? str(reference.mobile_url);
  const file = str(reference.doc_name) ?? str(reference.file_name);
  const pages = pagesOf(reference.page_nums);
  const document = str(reference.doc_id) ?? file ?? str(reference.doc_title);
  return {
    // A chunk is its own source (a button cites that passage); a web result is its address.
    id: knowledge ? `${document ?? 'doc'}#${str(reference.chunk_id) ?? i + 1}` : (url ?? `reference${i + 1}`),
    title: knowledge ? str(reference.doc_title) : (str(reference.title) ?? str(reference.site_name)),
    file,
    url,
    snippet: str(reference.summary),
    page: pages[0] ?? null,
    pageEnd: pages.at(-1) ?? null,
    date: str(reference.publish_time),
    kind: knowledge ? 'document' : 'web',
    refs: [i + 1],
  };
}

export const volcengineArk: Format = {
  name: 'volcengine-ark',
  extract(payload) {
    const references = arr(payload.references);
    if (!references.some(isArkReference)) return null;
    // Numbered by place in the producer's list, as its [N] counts them.
    return {
      drafts: references.flatMap((reference, i) => (isObject(reference) ? [draft(reference, i)] : [])),
      ordered: true,
    };
  },
};
