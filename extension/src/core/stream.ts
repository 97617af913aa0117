/**
 * Streams: chunks arrive one by one and each producer puts its sources somewhere else —
 * every chunk (Perplexity), the first (Azure `delta.context`), the last content chunk and the
 * finish chunk (OpenRAG `extra`, "{}" before; RAGFlow `delta.reference`), annotation-only
 * chunks (grok2api Go, proxies), per-tool chunks (Groq `delta.executed_tools`), typed events
 * (Responses API). The accumulator keeps what each kind of field needs and
 * rebuilds one body that the formats read as if it had not been streamed.
 */

import { namesSources } from './formats/generic.js';
import { FORMATS } from './formats/index.js';
import { arr, distinctList, firstChoice, isObject, type JsonObject, obj, parseJsonString } from './json.js';
import type { StreamPart, StreamText } from './model.js';

export interface ChunkMerger {
  /** Takes a chunk: an object, its JSON text, or SSE `data:` lines. Never throws. */
  add(chunk: unknown): void;
  /** Everything added so far, as one non-streamed body. */
  body(): JsonObject;
  /** The answer text streamed so far. */
  text(): string;
}

/** Values that mean "nothing yet" in the fields producers repeat or replace: NVIDIA RAG sends
 * `{total_results: 0, results: []}` on every chunk after the one with its sources. */
function isEmpty(value: unknown, depth = 0): boolean {
  if (value === null || value === undefined || value === '' || value === '{}') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (!isObject(value) || depth > 0) return false;
  for (const key in value) if (value[key] !== 0 && !isEmpty(value[key], depth + 1)) return false;
  return true;
}

/** Message fields the merger rebuilds itself; any other (`reference`, `final_content`, …) is kept. */
const MESSAGE_REBUILT = new Set(['content', 'role', 'annotations']);
/** Choice fields the merger rebuilds or keeps itself; any other (a backend's own beside the message,
 * which the reader of last resort reads: `retrieval`, …) is kept as `top` keeps its fields. */
const CHOICE_REBUILT = new Set(['index', 'delta', 'message', 'finish_reason', 'logprobs']);

/** A property of an object made from untrusted JSON, whatever its name: assigning `__proto__`
 * would replace the object's prototype, and the formats would then read inherited fields. */
function setOwn(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A list of per-item updates (Groq's `executed_tools`, each with its `index`), merged by index
 * into one map per field across the stream: each chunk's items are merged into it, not the whole
 * list rebuilt for every chunk (thousands of chunks). Made a list when the body is. */
class Indexed {
  readonly byIndex = new Map<unknown, JsonObject>();
  constructor(earlier: unknown) {
    for (const item of arr(earlier).filter(isObject)) this.byIndex.set(item.index, item);
  }
  list(): unknown[] {
    return [...this.byIndex.values()];
  }
}

function mergeIndexed(earlier: unknown, later: unknown[]): Indexed | null {
  if (!later.every((item) => isObject(item) && typeof item.index === 'number')) return null;
  const merged = earlier instanceof Indexed ? earlier : new Indexed(earlier);
  for (const item of later as JsonObject[]) {
    const update: JsonObject = { ...merged.byIndex.get(item.index) };
    for (const key in item) if (!isEmpty(item[key])) setOwn(update, key, item[key]);
    merged.byIndex.set(item.index, update);
  }
  return merged;
}

export function isStreamEvent(value: unknown): boolean {
  return (
    isObject(value) &&
    (Array.isArray(value.choices) || (typeof value.type === 'string' && value.type.startsWith('response.')))
  );
}

/** FastGPT's `event: flowResponses`: its workflow's node responses, a list, sent once at the end. */
const FASTGPT_RESPONSES = 'flowResponses';

/** JSON text, or SSE text made of `data:` lines, as a value or a list of chunks. A list sent as
 * FastGPT's flowResponses event is the chunk `{responseData: list}`, as its non-streamed body has
 * it; one sent as an event named for sources, `{<event>: list}`. */
export function parseStreamText(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('data:') && !trimmed.startsWith('event:')) return parseJsonString(trimmed);
  const chunks: JsonObject[] = [];
  let event = ''; // the event's name, until the blank line that ends it
  for (const line of trimmed.split(/\r?\n/)) {
    if (line === '') event = '';
    else if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) {
      const data = line.slice(5).trim();
      if (data === '[DONE]') continue;
      const value = parseJsonString(data);
      // A named event's object that is neither a chunk nor typed is the producer's progress (FastGPT's
      // flowNodeStatus, toolCall, updateVariables…), not part of the answer.
      if (isObject(value) && (event === '' || isStreamEvent(value) || typeof value.type === 'string'))
        chunks.push(value);
      else if (event === FASTGPT_RESPONSES && Array.isArray(value)) chunks.push({ choices: [], responseData: value });
      // A list sent as an event whose name says it holds sources (Cloudflare AI Search's `event:
      // chunks`, before the answer) is a field of that name, as the non-streamed body has it.
      else if (Array.isArray(value) && namesSources(event)) chunks.push({ [event]: value });
    }
  }
  return chunks;
}

/** Open WebUI's event of one source: `{type: "source" | "citation", data}`. */
const isOpenWebUiSourceEvent = (event: JsonObject): event is JsonObject & { data: JsonObject } =>
  (event.type === 'source' || event.type === 'citation') && isObject(event.data);

/** The formats' shares of a stream, read when a merger is made (formats/index.ts imports formats that
 * import the core). */
const STREAM_PARTS = (): Array<() => StreamPart> => FORMATS.flatMap((format) => (format.stream ? [format.stream] : []));

const TOP_LEVEL_SKIPPED = new Set([
  'choices',
  'id',
  'object',
  'created',
  'model',
  'usage',
  'system_fingerprint',
  'type',
]);

export function createMerger(makeParts: ReadonlyArray<() => StreamPart> = STREAM_PARTS()): ChunkMerger {
  const top = new Map<string, unknown>(); // replacing fields: the last non-empty value wins
  // One string, added to: the page reads the text after every chunk (to add only what is new),
  // which joining a list of pieces would copy whole every time.
  let text = '';
  const stream: StreamText = {
    text: () => text,
    add(piece) {
      text += piece;
    },
  };
  // The formats' own shares of the stream (a format's `stream`): Responses events, Claude's
  // citations placed by position, Mistral's page chunks.
  const parts = makeParts.map((make) => make());
  const annotations = distinctList();
  const sources: unknown[] = [];
  const messageFields = new Map<string, unknown>(); // replacing fields, as `top`
  let providerFields: JsonObject | null = null; // messageFields' provider_specific_fields, added to
  const choiceFields = new Map<string, unknown>(); // replacing fields, as `top`
  const addContent = (content: unknown): void => {
    if (typeof content === 'string') return void stream.add(content);
    for (const chunk of arr(content)) {
      if (!isObject(chunk)) continue;
      if (chunk.type === 'text' && typeof chunk.text === 'string') stream.add(chunk.text);
      else parts.some((part) => part.keepsContent?.(chunk, text.length));
    }
  };

  const addObject = (chunk: JsonObject): void => {
    if (parts.some((part) => part.takes?.(chunk, stream))) return;
    if (isOpenWebUiSourceEvent(chunk)) return void sources.push(chunk.data);
    // The same event as a producer sends it for Open WebUI to relay (Hayhooks' create_source_event),
    // on a line of its own or beside the answer's text.
    const relayed = obj(chunk.event);
    if (relayed && isOpenWebUiSourceEvent(relayed)) sources.push(relayed.data);
    if (Array.isArray(chunk.document)) return void sources.push(chunk);
    for (const key in chunk) {
      if (!TOP_LEVEL_SKIPPED.has(key) && !isEmpty(chunk[key])) top.set(key, chunk[key]);
    }
    const choice = firstChoice(chunk);
    for (const key in choice) {
      if (!CHOICE_REBUILT.has(key) && !isEmpty(choice[key])) choiceFields.set(key, choice[key]);
    }
    for (const part of [obj(choice?.delta), obj(choice?.message)]) {
      if (!part) continue;
      // A tool's result (MiniMax streams its search results so, as JSON) is not the answer's text.
      if (part === choice?.delta && part.role !== 'tool') addContent(part.content);
      annotations.add(arr(part.annotations));
      for (const key in part) {
        const value = part[key];
        if (MESSAGE_REBUILT.has(key) || isEmpty(value)) continue;
        if (key === 'provider_specific_fields' && isObject(value)) {
          // LiteLLM sends each of its fields on a chunk of its own (Claude's web_search_results, then
          // each citation): added to one object, not copied with all the earlier ones each time.
          const earlier = messageFields.get(key);
          if (!providerFields || earlier !== providerFields) {
            providerFields = { ...obj(earlier) };
            messageFields.set(key, providerFields);
          }
          for (const name of Object.keys(value)) {
            if (!isEmpty(value[name])) setOwn(providerFields, name, value[name]);
          }
          continue;
        }
        messageFields.set(key, (Array.isArray(value) && mergeIndexed(messageFields.get(key), value)) || value);
      }
    }
    if (!choice?.delta) addContent(obj(choice?.message)?.content);
    for (const part of parts) part.read?.(chunk, stream);
  };

  const body = (): JsonObject => {
    const merged: JsonObject = Object.fromEntries(top);
    // Copies: the merger goes on adding to its own (a body is read while the stream goes on).
    const fields = [...messageFields].map(([key, value]) => [
      key,
      value instanceof Indexed ? value.list() : value === providerFields ? { ...providerFields } : value,
    ]);
    const message: JsonObject = {
      ...Object.fromEntries(fields),
      role: 'assistant',
      content: text,
      annotations: annotations.values,
    };
    merged.choices = [{ ...Object.fromEntries(choiceFields), index: 0, message }];
    if (sources.length && !('sources' in merged)) merged.sources = sources;
    for (const part of parts) {
      try {
        const own = part.into?.(merged, message, text);
        if (own) return own;
      } catch {
        // A part that cannot place what it kept leaves the body as merged: the stream's text stays.
      }
    }
    return merged;
  };

  return {
    add(chunk) {
      try {
        const parsed = typeof chunk === 'string' ? parseStreamText(chunk) : chunk;
        for (const item of Array.isArray(parsed) ? parsed : [parsed]) if (isObject(item)) addObject(item);
      } catch {
        // A malformed chunk is skipped; the stream goes on.
      }
    },
    body,
    text: () => text,
  };
}

/** A finished sequence of chunks as one body. */
export function mergeChunks(chunks: unknown[]): JsonObject {
  const merger = createMerger();
  chunks.forEach((chunk) => merger.add(chunk));
  return merger.body();
}
