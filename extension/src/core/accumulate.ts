import { extractCitationSteps, extractCitations } from './extract.js';
import type { JsonObject } from './json.js';
import type { ExtractOptions, ExtractResult } from './model.js';
import type { Budget, Steps } from './steps.js';
import { createMerger } from './stream.js';

export interface Accumulator {
  /** Takes a chunk: an object, its JSON text, or SSE `data:` lines. Never throws. */
  add(chunk: unknown): void;
  /** The citations of everything added so far (same shape as extractCitations). */
  result(): ExtractResult;
  /** `result` in steps (steps.ts). */
  resultSteps(budget: Budget): Steps<ExtractResult>;
  /** The answer text streamed so far. */
  text(): string;
  /** Everything added so far, as one body (stream.ts): what "Find sources" searches (core/candidates.ts). */
  body(): JsonObject;
}

export function createAccumulator(options: ExtractOptions = {}): Accumulator {
  const merger = createMerger();
  return {
    add: merger.add,
    result: () => extractCitations(merger.body(), options),
    resultSteps: (budget) => extractCitationSteps(merger.body(), options, budget),
    text: merger.text,
    body: merger.body,
  };
}
