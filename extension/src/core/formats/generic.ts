/**
 * The reader of last resort, for a backend no format knows. It looks a few levels deep for a list
 * in which EVERY item looks like a source, and reads the items by families of field names rather
 * than one producer's names (FAMILIES below): an item is a source when it has a link or a
 * document's name, and a title or a text, and no field that says it is something else (a
 * message's role, a tool call's arguments). These fields may sit in the item or in the objects it
 * keeps its document in (HOLDERS: `metadata`, `document.doc_metadata`, `item`, `source`, …).
 *
 * Where it looks (listsBelow): the payload, every choice and its message or delta, the objects
 * below them down to MAX_DEPTH, the data of an event whose name says it holds sources
 * (`{event: "sources", data}`, and the `{type, data}` a chunk carries as its `event`, which Open
 * WebUI relays), and the JSON a string there holds; and the lists a list's items hold, one field
 * of them all (`segments[].citations`: each result carrying its own), when the list itself is not
 * the sources. It skips the fields that hold something else (tool calls and their arguments, the
 * answer's text, …) and, where OpenAI and Open WebUI name the fields, the lists they define (API
 * lists, Open WebUI's events and its own sources).
 *
 * It must never misfire on an ordinary payload (a corpus of them is tested), so it gives up at the
 * first doubt: a list with any item unlike a source, sources in two lists (unless one has every
 * document of the others and more), a payload too large to search whole. `[N]` is the item whose own number (`ref_id`, `index`, `position`, …) is N, else
 * the N-th item; from 0 when the answer cites a 0. The field it read is reported as a path,
 * `choices[0].message.references`, for the backend's author.
 */

import { firstChoice, int, isObject, type JsonObject, num, obj, parseJsonString, str } from '../json.js';
import { MAX_CITATIONS } from '../limits.js';
import type { Draft, Format, FormatRead, ScoreKind } from '../model.js';
import { type Budget, finish, type Steps, WHOLE } from '../steps.js';
import { isFileName, isWebUrl } from '../urls.js';
import { linkNameSteps } from './answer-links.js';

// A producer puts its sources near the top: at most this many objects down (`choices[0]` is one).
const MAX_DEPTH = 4;
// Fields and list items read at most: past them the payload is too large to be sure of (and the
// search stays small whatever a hostile payload holds).
const MAX_VISITS = 5000;

/** Fields that hold something else wherever they are: tool calls, their arguments and results, the
 * text of the answer and of the reasoning (which may be JSON the model wrote), log probabilities,
 * media, Open WebUI's status, files and other events, what the other formats read. */
const ELSEWHERE = new Set([
  'choices', // below the payload: a completion someone else made
  'tool_calls',
  'function_call',
  'function',
  'arguments',
  'parameters',
  'tools',
  'tool_results', // what the tools returned: what the model read, not what it cites
  'tool_outputs',
  'content',
  'text',
  'parsed', // the answer as the SDKs parse structured output
  'answer',
  'response', // Ollama's /api/generate answer, which may be JSON the model wrote
  'final_content',
  'reasoning',
  'reasoning_content',
  'thinking',
  'reasoning_details',
  'refusal',
  'logprobs',
  'top_logprobs',
  'usage',
  'audio',
  'images',
  'embeds',
  'input',
  'output',
  'messages',
  'status',
  'statusHistory',
  'follow_ups',
  'tags',
  'models',
  'prompt_filter_results',
  'content_filter_results',
  'annotations',
  'urls', // Open WebUI's web search progress (status events): what it searched, not what it cites
]);

/** Lists OpenAI and Open WebUI define where they name the fields (the payload, a message or
 * delta): API lists and event data (`data`), Open WebUI's search progress and file lists (`items`,
 * `files`), its own sources and other formats' (`sources`, `citations`). On a choice (where neither defines
 * them: PrivateGPT's `choices[0].sources`) and below a producer's own field, these names are the
 * producer's. */
const DEFINED_LISTS = new Set(['data', 'items', 'files', 'sources', 'citations']);

/** Words of an event's name that say its data holds sources: "sources", "retrieval_docs", "onReferences". */
const SOURCE_EVENT_WORDS = new Set([
  'source',
  'sources',
  'citation',
  'citations',
  'reference',
  'references',
  'refs',
  'retrieval',
  'retrieved',
  'retriever',
  'documents',
  'docs',
  'knowledge',
  'grounding',
  'chunks',
  'context',
]);
/** Open WebUI's own socket events of one source each, read by formats/open-webui.ts. */
const OPEN_WEBUI_SOURCE_EVENTS = new Set(['source', 'citation']);

/** Each name as written and in camelCase: `page_label`, `pageLabel`. */
const spellings = (...names: string[]): string[] =>
  names.flatMap((name) =>
    name.includes('_') ? [name, name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())] : [name],
  );

// The families of an item's fields, each in the order read (also the names core/candidates.ts
// guesses fields by). `source` and `key` are a link when they are an http(s) address, and a
// document's name when they name a file (a path or a document's extension): "user" or "assistant" there is who wrote a message (AutoGen's), "name" a table's column.
export const FAMILIES = {
  link: spellings('url', 'link', 'href', 'uri', 'source_url'),
  document: spellings(
    'doc_name',
    'document_name',
    'file_name',
    'filename',
    'file_path',
    'filepath',
    'source_name',
    'file', // GPT4All's (a name: an object there is a file's record, not read)
  ),
  title: spellings('title', 'name', 'document_title', 'doc_title'),
  text: spellings('snippet', 'content', 'text', 'chunk', 'summary', 'page_content', 'excerpt', 'q'),
  quote: ['quote'],
  score: spellings('score', 'relevance_score', 'relevance', 'similarity'),
  page: spellings('page', 'page_label', 'page_number', 'page_nums'),
  date: spellings('date', 'published_date', 'published_at', 'publish_time'),
  // The number the producer gives an item, which its `[N]` writes (`id` apart: ownNumbers).
  number: spellings('ref', 'ref_id', 'reference_id', 'citation_id', 'number', 'n', 'no', 'index', 'position'),
};
/** Fields of things that are not sources: messages, tool calls, embeddings, tokens, images, and
 * connections (Open WebUI's tool and terminal servers: a name and an address, switched on or off). */
const NOT_A_SOURCE = spellings(
  'role',
  'tool_call_id',
  'arguments',
  'function',
  'embedding',
  'logprob',
  'b64_json',
  'enabled',
  'auth_type',
);
/** Fields that name an item's document by an id only (Writer's `fileId` and `cite`): a source when
 * the answer links to the id by the document's name, `[Handbook.pdf](7b1e…)` (answer-links.ts). */
const ID_FIELDS = spellings('file_id', 'document_id', 'doc_id', 'cite');

// As markers.ts reads a plain "[n]": larger numbers are ids, not what an answer cites.
const MAX_OWN_NUMBER = 999;
// The number an item gives itself as text: "3", "ref_3", "[3]", "doc-3".
const OWN_NUMBER_TEXT = /^\[?[A-Za-z_:#-]{0,12}(\d{1,4})\]?$/;
// An answer citing a 0 ([0], 【0】, [ref_0], [citation:0]): its sources are numbered from 0.
export const CITES_ZERO = /[[【][^\d\]【】\n]{0,12}0\s*[\]】,]/;

interface Place {
  path: string;
  object: JsonObject;
  depth: number;
  role: 'payload' | 'choice' | 'message' | 'producer';
}

/** The name of an event: `{event: "sources", data}`, or `{type: "sources", data}` as Open WebUI relays it. */
const eventName = (object: JsonObject): string | null => str(object.event) ?? str(object.type);

/** Whether an event's name says its data holds sources: one of its words (snake, kebab or camelCase)
 * does. Not an API's own event, whose names are dotted (Open WebUI's `retrieval.content.processed`,
 * `knowledge.file.added`; the Responses API's `response.output_item.done`), nor Open WebUI's sources. */
export function namesSources(name: string): boolean {
  if (name === '' || OPEN_WEBUI_SOURCE_EVENTS.has(name) || name.includes('.')) return false;
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/);
  return words.some((word) => SOURCE_EVENT_WORDS.has(word));
}

/** Whether a field of a place may hold the sources. An event's `data` only when its name says so. */
function mayHoldSources(place: Place, key: string): boolean {
  const event = key === 'data' ? eventName(place.object) : null;
  if (event !== null) return namesSources(event);
  const defined = place.role === 'payload' || place.role === 'message';
  return !ELSEWHERE.has(key) && !(defined && DEFINED_LISTS.has(key));
}

/** A string's JSON, when it looks like some (OpenRAG's `extra`); any other value as it is. */
const jsonOf = (value: unknown): unknown =>
  typeof value === 'string' && /^\s*[[{]/.test(value) ? parseJsonString(value) : value;

/** The payload's choices, each a place (their message or delta are found in them). */
function choicePlaces(choices: unknown): Place[] {
  if (!Array.isArray(choices)) return [];
  return choices.flatMap((choice, i): Place[] =>
    isObject(choice) ? [{ path: `choices[${i}]`, object: choice, depth: 1, role: 'choice' }] : [],
  );
}

/** A list that may hold the sources; `within`, the list whose items hold it. */
interface Candidate {
  field: string;
  list: unknown[];
  within?: unknown[];
}

/**
 * The lists a list's items hold, one a field (`segments[].citations`): each result carrying its
 * own citations, each search its own results. The items of all in one list, in order; an item
 * without the field holds none. With the fields and items read.
 */
function listsInItems(field: string, list: unknown[], budget: number): { lists: Candidate[]; visits: number } {
  const byKey = new Map<string, unknown[]>();
  let visits = 0;
  for (const item of list) {
    if (!isObject(item)) continue;
    for (const key in item) {
      const value = item[key];
      visits += 1 + (Array.isArray(value) ? value.length : 0);
      if (visits > budget) return { lists: [], visits };
      if (!Array.isArray(value) || value.length === 0 || ELSEWHERE.has(key)) continue;
      const items = byKey.get(key) ?? [];
      items.push(...value);
      byKey.set(key, items);
    }
  }
  const lists = [...byKey]
    .filter(([, items]) => items.length <= MAX_CITATIONS)
    .map(([key, items]) => ({ field: `${field}[].${key}`, list: items, within: list }));
  return { lists, visits };
}

/**
 * Every list in the payload's places, with its path, breadth first (the nearer first), each
 * followed by the lists its items hold; null when the payload has more than MAX_VISITS fields and
 * list items to read. A list longer than MAX_CITATIONS is data, not sources, and is not kept.
 */
function listsBelow(payload: JsonObject): Candidate[] | null {
  const lists: Candidate[] = [];
  const places: Place[] = [{ path: '', object: payload, depth: 0, role: 'payload' }, ...choicePlaces(payload.choices)];
  let visits = places.length;
  for (let next = 0; next < places.length; next++) {
    const place = places[next]!;
    for (const key in place.object) {
      if (++visits > MAX_VISITS) return null;
      if (!mayHoldSources(place, key)) continue;
      const value = jsonOf(place.object[key]);
      const field = place.path === '' ? key : `${place.path}.${key}`;
      if (Array.isArray(value)) {
        if (value.length === 0 || value.length > MAX_CITATIONS) continue;
        const inItems = listsInItems(field, value, MAX_VISITS - visits);
        visits += value.length + inItems.visits;
        if (visits > MAX_VISITS) return null;
        lists.push({ field, list: value }, ...inItems.lists);
      } else if (isObject(value) && place.depth < MAX_DEPTH && value.object !== 'list') {
        const inChoice = place.role === 'choice' && (key === 'message' || key === 'delta');
        if (inChoice && value.role === 'tool') continue; // a tool's result, not the answer
        places.push({ path: field, object: value, depth: place.depth + 1, role: inChoice ? 'message' : 'producer' });
      }
    }
  }
  return lists;
}

/** The objects of an item that hold its document's fields: LangChain's and LlamaIndex's metadata
 * and node, PrivateGPT's `document.doc_metadata`, Cloudflare's `item`, a search result's `source`
 * or `web`. Other objects of an item (a user, an author's profile) are not the document. */
const HOLDERS = spellings('metadata', 'doc_metadata', 'meta', 'node', 'document', 'doc', 'source', 'item', 'web');
// Holders read down from the item: `document.doc_metadata` is two.
const HOLDER_DEPTH = 2;

/** Where an item's fields are: the item, then its holders, the nearer first. */
function fieldPlaces(item: JsonObject): JsonObject[] {
  const places = [item];
  for (let next = 0, level = [item]; next < HOLDER_DEPTH; next++) {
    level = level
      .flatMap((place) => HOLDERS.flatMap((key) => (Object.hasOwn(place, key) ? [obj(place[key])] : [])))
      .filter((place): place is JsonObject => place !== null);
    places.push(...level);
  }
  return places;
}

/** The first of the fields `keys` that one of `places` has and `read` reads, the item's own first. */
function first<T>(places: JsonObject[], keys: string[], read: (value: unknown, key: string) => T | null): T | null {
  for (const place of places) {
    for (const key of keys) {
      const found = Object.hasOwn(place, key) ? read(place[key], key) : null;
      if (found !== null) return found;
    }
  }
  return null;
}

const webUrl = (value: unknown): string | null => (isWebUrl(value) ? value : null);
const fileName = (value: unknown): string | null => {
  const name = str(value);
  return name !== null && isFileName(name) && !isWebUrl(name) ? name : null;
};

/** A page: a number, a numeric text (LlamaIndex's "3"), the first of a list or of a text ("3,4"). */
function pageOf(value: unknown): number | null {
  const given = Array.isArray(value) ? value[0] : typeof value === 'string' ? /\d+/.exec(value)?.[0] : value;
  const page = int(given);
  return page !== null && page > 0 ? page : null;
}

/** A score, as a similarity (shown as a percentage) only when the producer says so and it is one. */
function scoreOf(value: unknown, key: string): { value: number; kind: ScoreKind } | null {
  const score = num(value);
  if (score === null) return null;
  return { value: score, kind: key === 'similarity' && score >= 0 && score <= 1 ? 'similarity' : 'raw' };
}

/** Open WebUI's own source, `{source, document[], metadata[]}`: formats/open-webui.ts reads it. */
const isOpenWebUiSource = (item: JsonObject): boolean => Array.isArray(item.document) || Array.isArray(item.metadata);

/** An item read as a source; `byId` when only an id names its document: `named` when the answer
 * links to that id (its link's text the document's name), `unnamed` when it does not. */
interface ItemRead {
  draft: Draft;
  byId: 'named' | 'unnamed' | null;
}

/** One item of a list as a source, without its number yet; null when it is not like one. */
function asSource(item: unknown, position: number, names: ReadonlyMap<string, string>): ItemRead | null {
  if (!isObject(item) || NOT_A_SOURCE.some((key) => Object.hasOwn(item, key)) || isOpenWebUiSource(item)) return null;
  const places = fieldPlaces(item);
  const link = first(places, FAMILIES.link, webUrl) ?? first(places, ['source', 'key'], webUrl);
  const named = first(places, FAMILIES.document, str) ?? first(places, ['source', 'key'], fileName);
  const title = first(places, FAMILIES.title, str);
  const text = first(places, FAMILIES.text, str);
  const quote = first(places, FAMILIES.quote, str);
  if (title === null && text === null && quote === null) return null;
  const byId = link === null && named === null ? documentById(places, names) : null;
  if (link === null && named === null && (byId === null || (byId.name === null && text === null))) return null;
  const document = named ?? byId?.name ?? null;
  const score = first(places, FAMILIES.score, scoreOf);
  const draft: Draft = {
    id: link ?? byId?.id ?? `${document}#${position}`,
    title,
    file: document,
    url: link,
    snippet: text,
    quote: quote === null ? null : { text: quote, start: null, end: null },
    score: score?.value ?? null,
    scoreKind: score?.kind ?? null,
    page: first(places, FAMILIES.page, pageOf),
    date: first(places, FAMILIES.date, str),
    kind: link === null ? 'document' : 'web',
  };
  return { draft, byId: byId === null ? null : byId.name === null ? 'unnamed' : 'named' };
}

/** The id an item names its document by, with the name the answer's link to it gives (the first
 * id the answer links to, else the first id); null when it has none. */
function documentById(
  places: JsonObject[],
  names: ReadonlyMap<string, string>,
): { id: string; name: string | null } | null {
  const linked = first(places, ID_FIELDS, (value) => {
    const id = str(value);
    const name = id === null ? undefined : names.get(id);
    return id !== null && name !== undefined ? { id, name } : null;
  });
  const id = linked ? null : first(places, ID_FIELDS, str);
  return linked ?? (id === null ? null : { id, name: null });
}

/** The number an item gives itself in a field: 3, "3", "ref_3"; none past MAX_OWN_NUMBER. */
function ownNumber(value: unknown): number | null {
  const n = int(typeof value === 'string' ? OWN_NUMBER_TEXT.exec(value.trim())?.[1] : value);
  return n !== null && n >= 0 && n <= MAX_OWN_NUMBER ? n : null;
}

/** Every item's number in one field, when each has one and no two the same. */
function numbersIn(items: JsonObject[], key: string): number[] | null {
  const numbers: number[] = [];
  const seen = new Set<number>();
  for (const item of items) {
    const n = Object.hasOwn(item, key) ? ownNumber(item[key]) : null;
    if (n === null || seen.has(n)) return null;
    seen.add(n);
    numbers.push(n);
  }
  return numbers;
}

/** The numbers the producer gives its items: of the first number field every item has; else their
 * `id`s, when these number the items (1..n or 0..n-1), not a database's keys. */
function ownNumbers(items: JsonObject[]): number[] | null {
  for (const key of FAMILIES.number) {
    const numbers = numbersIn(items, key);
    if (numbers) return numbers;
  }
  const ids = numbersIn(items, 'id');
  const lowest = ids ? Math.min(...ids) : -1;
  return ids && lowest <= 1 && Math.max(...ids) - lowest === ids.length - 1 ? ids : null;
}

/** Numbers from 0 (the items' own, or their places) are what the answer writes when it cites a 0;
 * else it counts from 1, and a number from 0 is an item's place in the list: one more. */
const asCited = (numbers: number[], citesZero: () => boolean): number[] =>
  !numbers.includes(0) || citesZero() ? numbers : numbers.map((n) => n + 1);

/** A list's items as sources numbered as the answer cites them; null unless every item is one.
 * Items named by an id only are a list's when the answer names at least one of them. */
function asSources(list: unknown[], citesZero: () => boolean, names: ReadonlyMap<string, string>): Draft[] | null {
  const drafts: Draft[] = [];
  let named = false;
  let unnamed = false;
  for (const item of list) {
    const read = asSource(item, drafts.length, names);
    if (read === null) return null;
    named ||= read.byId === 'named';
    unnamed ||= read.byId === 'unnamed';
    drafts.push(read.draft);
  }
  if (unnamed && !named) return null;
  const own = ownNumbers(list as JsonObject[]);
  const numbers = asCited(own ?? drafts.map((_, i) => i), citesZero);
  drafts.forEach((draft, i) => {
    draft.refs = [numbers[i]!];
  });
  return drafts;
}

/** Of several lists, the one whose sources include every other's and more; null if none does. */
function covering<T extends { drafts: Draft[] }>(found: T[]): T | null {
  const ids = found.map(({ drafts }) => new Set(drafts.map((draft) => draft.id)));
  const index = ids.findIndex((mine, i) =>
    ids.every((theirs, j) => i === j || (theirs.size < mine.size && [...theirs].every((id) => mine.has(id)))),
  );
  return index < 0 ? null : found[index]!;
}

/** The answer's text, for the numbers it cites. */
const answerText = (payload: JsonObject): string | null =>
  str(obj(firstChoice(payload)?.message)?.content) ?? str(obj(firstChoice(payload)?.delta)?.content);

/** The generic reader in steps (../steps.ts): the answer's text read for its links, then each
 * list found a step of its items' number. */
export function* genericSteps(payload: JsonObject, budget: Budget): Steps<FormatRead> {
  // API lists, Open WebUI events
  if (payload.object === 'list' || (typeof payload.type === 'string' && !payload.choices)) return null;
  const lists = listsBelow(payload);
  if (lists === null) return null;
  const answer = answerText(payload);
  const names = yield* linkNameSteps(answer, budget);
  // Whether the answer cites a 0: asked of the text once, when a list counts from 0.
  let citesZero: boolean | undefined;
  const readsZero = (): boolean => (citesZero ??= answer !== null && CITES_ZERO.test(answer));
  const found: Array<{ field: string; drafts: Draft[] }> = [];
  const read = new Set<unknown[]>();
  for (const { field, list, within } of lists) {
    if (budget.spend(1 + list.length)) yield;
    // A list of sources is read whole: what its items hold (their authors, their pages) is theirs.
    const drafts = within && read.has(within) ? null : asSources(list, readsZero, names);
    if (drafts) {
      read.add(list);
      found.push({ field, drafts });
    }
  }
  // None, or several lists: which one holds the sources is a guess, unless one has every
  // document of the others and more (the others, what it cited of them).
  const chosen = found.length === 1 ? found[0] : covering(found);
  return chosen ? { drafts: chosen.drafts, ordered: true, field: chosen.field } : null;
}

export const generic: Format = {
  name: 'generic',
  extract: (payload) => finish(genericSteps(payload, WHOLE)),
  steps: genericSteps,
};
