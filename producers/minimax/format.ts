/**
 * MiniMax's built-in web search (`tools: [{type: "web_search"}]` on its chat completions): the
 * whole exchange comes as `choices[0].messages` (the user's turn, the assistant's `web_search`
 * tool call, the tool's result, the answer), the last message carrying `annotations`, each
 * {text: "【5†source】", url, quote}: the marker the answer writes, the page and the passage it
 * rests on. Streamed, that list comes on the last chunk, which has no text; the search results
 * come before, as a tool-role chunk whose content is a JSON list of {no, url, title, content,
 * web_icon}, `no` being the number a marker writes. A tool message with such a list is read too:
 * its pages are sources, cited or not. The marker itself is core's `【n†…】` (core/marker-syntax/fullwidth.ts).
 */

import {
  arr,
  firstChoice,
  int,
  isObject,
  type JsonObject,
  objects,
  parseJsonString,
  str,
} from '../../extension/src/core/json.js';
import { MAX_CITATIONS, MAX_REFS } from '../../extension/src/core/limits.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

/** A MiniMax annotation: a link and the marker text, without OpenAI's `type`. */
const isMinimaxAnnotation = (annotation: unknown): annotation is JsonObject =>
  isObject(annotation) &&
  !('type' in annotation) &&
  str(annotation.url) !== null &&
  typeof annotation.text === 'string' &&
  ('quote' in annotation || annotation.text.includes('【'));

/** The number of a `【5†source】` marker, read by hand: its first digits after the first `【`. */
function markerNumber(text: string): number | null {
  const open = text.indexOf('【');
  if (open < 0) return null;
  let value = 0;
  let digits = 0;
  for (let i = open + 1; i < text.length && digits < 5; i++, digits++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  return digits > 0 && digits < 5 ? value : null;
}

/** The search results of a tool message: its content, a JSON list of pages (or that list already parsed). */
function searchResults(message: JsonObject): JsonObject[] {
  if (message.role !== 'tool') return [];
  return objects(parseJsonString(message.content)).filter((result) => str(result.url) !== null);
}

export const minimax: Format = {
  name: 'minimax',
  extract(payload) {
    // `choices[0].messages`: only MiniMax puts a list of messages there.
    const messages = objects(firstChoice(payload)?.messages);
    if (!messages.length) return null;
    const annotations = arr(messages.at(-1)?.annotations).filter(isMinimaxAnnotation);
    const results = messages.flatMap(searchResults);
    if (!annotations.length && !results.length) return null;

    // One source per page: the search results in MiniMax's order, then pages only an annotation names.
    const byUrl = new Map<string, Draft>();
    const draftOf = (url: string): Draft | null => {
      const known = byUrl.get(url);
      if (known || byUrl.size >= MAX_CITATIONS) return known ?? null;
      const draft: Draft = { id: url, url, kind: 'web', refs: [] };
      byUrl.set(url, draft);
      return draft;
    };
    const addRef = (draft: Draft, ref: number | null): void => {
      // At most MAX_REFS, as finalize keeps: one page named by thousands of annotations stays linear.
      if (ref !== null && ref > 0 && draft.refs!.length < MAX_REFS && !draft.refs!.includes(ref)) draft.refs!.push(ref);
    };
    for (const result of results) {
      const draft = draftOf(str(result.url)!);
      if (!draft) continue; // past MAX_CITATIONS pages
      addRef(draft, int(result.no));
      draft.title ??= str(result.title);
      draft.snippet ??= str(result.content);
    }
    for (const annotation of annotations) {
      const draft = draftOf(str(annotation.url)!);
      if (!draft) continue; // past MAX_CITATIONS pages
      addRef(draft, markerNumber(annotation.text as string));
      const quote = str(annotation.quote);
      if (quote && !draft.quote) draft.quote = { text: quote, start: null, end: null };
    }
    return { drafts: [...byUrl.values()], ordered: true };
  },
};
