import { DECLARED_FORMAT, declaredFormat } from './declared-read.js';
import { finalize } from './finalize.js';
import { FORMATS } from './formats/index.js';
import { isObject, type JsonObject } from './json.js';
import { MAX_CITATIONS } from './limits.js';
import type { ExtractOptions, ExtractResult } from './model.js';
import { type Budget, finish, type Steps, WHOLE } from './steps.js';
import { isStreamEvent, mergeChunks, parseStreamText } from './stream.js';

const EMPTY = (): ExtractResult => ({ format: null, citations: [] });

/** The payload as one object: a parsed body, the merge of a chunk sequence, or a source list. */
function asBody(payload: unknown): JsonObject | null {
  if (typeof payload === 'string') return asBody(parseStreamText(payload));
  if (Array.isArray(payload)) {
    // Chunks, among them maybe one that is not a completion chunk (an upstream Open WebUI's
    // `{sources}` first); a list of sources never holds a chunk.
    if (payload.some(isStreamEvent)) return mergeChunks(payload);
    return { sources: payload };
  }
  return isObject(payload) ? payload : null;
}

/**
 * Citations of one payload the page saw: a response body, a stream chunk, a sequence of
 * chunks (array or SSE text), an Open WebUI message or its `sources`. Never throws.
 */
export const extractCitations = (payload: unknown, options: ExtractOptions = {}): ExtractResult =>
  finish(extractCitationSteps(payload, options, WHOLE));

/** extractCitations in steps (steps.ts): a step ends between two formats, and within a reader that
 * reads the whole answer's text (a format's `steps`). */
export function* extractCitationSteps(payload: unknown, options: ExtractOptions, budget: Budget): Steps<ExtractResult> {
  let body: JsonObject | null;
  try {
    body = asBody(payload);
  } catch {
    return EMPTY();
  }
  if (!body) return EMPTY();
  let unreadable: string | undefined;
  // A declaration is the admin's (or the user's) word for this model, or for any model whose
  // answer has its numbered list: read before any format.
  const declared = [...(options.declared ? [options.declared] : []), ...(options.anyModel ?? [])];
  const formats = declared.length ? [...declared.map(declaredFormat), ...FORMATS] : FORMATS;
  for (const [i, format] of formats.entries()) {
    if (budget.spend(1)) yield;
    try {
      const found = format.steps ? yield* format.steps(body, budget) : format.extract(body);
      if (found && found.drafts.length > 0) {
        const drafts = found.drafts.slice(0, MAX_CITATIONS);
        const citations = finalize(drafts, found.ordered, format.name, options);
        // A reader that stops drafting at the cap counts the rest itself.
        const omitted = found.drafts.length - drafts.length + (found.omitted ?? 0);
        return {
          format: format.name,
          citations,
          ...(omitted ? { omitted } : {}),
          ...(found.field ? { field: found.field } : {}),
          ...(format.name === DECLARED_FORMAT && declared[i]?.markers ? { notation: declared[i].markers } : {}),
        };
      }
      if (found) unreadable ??= format.name;
    } catch {
      // A shape this format half-recognised; the next format may still read it.
    }
  }
  return unreadable ? { ...EMPTY(), unreadable } : EMPTY();
}
