/**
 * Streams: chunks arrive one by one and each producer puts its sources somewhere else —
 * every chunk (Perplexity), the first (Azure `delta.context`), the last content chunk and the
 * finish chunk (OpenRAG `extra`, "{}" before), annotation-only chunks (grok2api Go, proxies),
 * typed events (Responses API). The accumulator keeps what each kind of field needs and
 * rebuilds one body that the formats read as if it had not been streamed.
 */

import { arr, firstChoice, isObject, obj, parseJsonString, type JsonObject } from './json.js';

export interface ChunkMerger {
  /** Takes a chunk: an object, its JSON text, or SSE `data:` lines. Never throws. */
  add(chunk: unknown): void;
  /** Everything added so far, as one non-streamed body. */
  body(): JsonObject;
  /** The answer text streamed so far. */
  text(): string;
}

/** Values that mean "nothing yet" in the fields producers repeat or replace. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '' || value === '{}') return true;
  if (Array.isArray(value)) return value.length === 0;
  return isObject(value) && Object.keys(value).length === 0;
}

export function isStreamEvent(value: unknown): boolean {
  return isObject(value) && (Array.isArray(value.choices) || (typeof value.type === 'string' && value.type.startsWith('response.')));
}

/** JSON text, or SSE text made of `data:` lines, as a value or a list of chunks. */
export function parseStreamText(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('data:') && !trimmed.startsWith('event:')) return parseJsonString(trimmed);
  return trimmed
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .filter((data) => data !== '[DONE]')
    .map(parseJsonString)
    .filter(isObject);
}

const TOP_LEVEL_SKIPPED = new Set(['choices', 'id', 'object', 'created', 'model', 'usage', 'system_fingerprint', 'type']);

export function createMerger(): ChunkMerger {
  const top = new Map<string, unknown>(); // replacing fields: the last non-empty value wins
  const text: string[] = [];
  const annotations: unknown[] = [];
  const seenAnnotations = new Set<string>();
  const responseAnnotations: unknown[] = [];
  const sources: unknown[] = [];
  let context: unknown = null;
  let completed: JsonObject | null = null;

  const addAnnotations = (list: unknown[], into: unknown[]): void => {
    for (const annotation of list) {
      const key = JSON.stringify(annotation); // proxies repeat annotations: keep each once
      if (seenAnnotations.has(key)) continue;
      seenAnnotations.add(key);
      into.push(annotation);
    }
  };

  const addObject = (chunk: JsonObject): void => {
    if (typeof chunk.type === 'string' && chunk.type.startsWith('response.')) {
      if (chunk.type === 'response.output_text.delta' && typeof chunk.delta === 'string') text.push(chunk.delta);
      if (chunk.type === 'response.output_text.annotation.added') addAnnotations([chunk.annotation], responseAnnotations);
      if (chunk.type === 'response.completed' && isObject(chunk.response)) completed = chunk.response;
      return;
    }
    if ((chunk.type === 'source' || chunk.type === 'citation') && isObject(chunk.data)) return void sources.push(chunk.data);
    if (Array.isArray(chunk.document)) return void sources.push(chunk);
    for (const key in chunk) {
      if (!TOP_LEVEL_SKIPPED.has(key) && !isEmpty(chunk[key])) top.set(key, chunk[key]);
    }
    const choice = firstChoice(chunk);
    for (const part of [obj(choice?.delta), obj(choice?.message)]) {
      if (!part) continue;
      if (part === choice?.delta && typeof part.content === 'string') text.push(part.content);
      addAnnotations(arr(part.annotations), annotations);
      if (!isEmpty(part.context)) context = part.context;
    }
    if (!choice?.delta && typeof obj(choice?.message)?.content === 'string') text.push(obj(choice!.message)!.content as string);
  };

  const body = (): JsonObject => {
    if (completed) return completed;
    const merged: JsonObject = Object.fromEntries(top);
    const content = text.join('');
    merged.choices = [{ index: 0, message: { role: 'assistant', content, annotations, ...(context ? { context } : {}) } }];
    if (responseAnnotations.length) merged.output = [{ type: 'message', content: [{ type: 'output_text', text: content, annotations: responseAnnotations }] }];
    if (sources.length && !('sources' in merged)) merged.sources = sources;
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
    text: () => text.join(''),
  };
}

/** A finished sequence of chunks as one body. */
export function mergeChunks(chunks: unknown[]): JsonObject {
  const merger = createMerger();
  chunks.forEach((chunk) => merger.add(chunk));
  return merger.body();
}
