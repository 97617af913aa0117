/**
 * Mistral's content lists: where OpenAI sends `message.content` (or a chunk's `delta.content`) as a
 * string, Mistral may send a list of chunks (mistralai/client-python, models/contentchunk.py):
 * `text` chunks, whose texts joined are the answer, among others. A `tool_reference` chunk
 * {tool, title, url?, favicon?, description?} names a page or document a built-in tool (web
 * search, document library) found; it comes after the text it supports, which is its anchor:
 * the text since the previous tool_reference. Inside a `thinking` chunk, tool_references name what
 * the model read while reasoning: sources without an anchor, cited only where the answer cites them.
 * A `reference` chunk {reference_ids} names entries of a tool result the client itself sent
 * (Mistral's citations guide): the answer does not carry them, so it is not read.
 */

import { arr, firstChoice, isObject, type JsonObject, obj, objects, str } from '../../extension/src/core/json.js';
import { MAX_CITATIONS } from '../../extension/src/core/limits.js';
import type { Anchor, Draft, Format, StreamPart } from '../../extension/src/core/model.js';

const isToolReference = (chunk: unknown): chunk is JsonObject => isObject(chunk) && chunk.type === 'tool_reference';

/** A content chunk that names pages: a tool_reference, or a thinking chunk holding some. */
const namesPages = (chunk: JsonObject): boolean =>
  chunk.type === 'tool_reference' || (chunk.type === 'thinking' && arr(chunk.thinking).some(isToolReference));

/** A tool_reference's page, anchored to what it supports; null when it has neither title nor link. */
function draft(reference: JsonObject, anchors: Anchor[]): Draft | null {
  const title = str(reference.title);
  const url = str(reference.url);
  if (!title && !url) return null;
  return {
    id: url ?? `${str(reference.tool) ?? 'tool'}:${title}`,
    title,
    url,
    snippet: str(reference.description),
    kind: reference.tool !== 'document_library' && url ? 'web' : 'document',
    anchors,
  };
}

/** Streamed, the texts of the content lists are the answer's; a chunk naming pages is kept with
 * where in the text it came, the point it cites, and the content list is rebuilt around them. */
function mistralStream(): StreamPart {
  const kept: Array<{ at: number; chunk: JsonObject }> = [];
  return {
    keepsContent(chunk, at) {
      if (!namesPages(chunk) || kept.length >= MAX_CITATIONS) return false;
      kept.push({ at, chunk });
      return true;
    },
    into(_body, message, text) {
      if (!kept.length) return undefined;
      const list: unknown[] = [];
      let from = 0;
      for (const { at, chunk } of kept) {
        if (at > from) list.push({ type: 'text', text: text.slice(from, at) });
        list.push(chunk);
        from = at;
      }
      if (text.length > from) list.push({ type: 'text', text: text.slice(from) });
      message.content = list;
      return undefined;
    },
  };
}

export const mistral: Format = {
  name: 'mistral',
  stream: mistralStream,
  extract(payload) {
    const message = obj(firstChoice(payload)?.message) ?? obj(firstChoice(payload)?.delta);
    const chunks = objects(message?.content);
    if (!chunks.some(namesPages)) return null;
    const cited: Draft[] = [];
    const read: Draft[] = [];
    // UTF-16 length of the answer so far, and the stretch of it the latest tool_reference supports:
    // tool_references in a row share one stretch.
    let length = 0;
    let from = 0;
    let to = 0;
    for (const chunk of chunks) {
      if (chunk.type === 'text' && typeof chunk.text === 'string') length += chunk.text.length;
      else if (chunk.type === 'tool_reference') {
        if (length > to) [from, to] = [to, length];
        const found = draft(chunk, to > from ? [{ start: from, end: to, unit: 'utf16' }] : []);
        if (found) cited.push(found);
      } else if (chunk.type === 'thinking') {
        for (const reference of arr(chunk.thinking).filter(isToolReference)) {
          const found = draft(reference, []);
          if (found) read.push(found);
        }
      }
    }
    // What the answer cites first, then what was only read (a page both is one source, cited).
    return { drafts: [...cited, ...read], ordered: true };
  },
};
