/** Payloads for the reader of last resort's tests (core/formats/generic*.test.ts), and what a user sees of them. */

import assert from 'node:assert/strict';

import { extractCitations } from '../src/core/extract.js';
import { linkMarkers } from '../src/core/markers.js';
import type { Citation } from '../src/core/model.js';

/** An answer's body: one choice whose message says `content`, and `extra` fields of the choice and of the body. */
export const body = (content: string, { choice = {}, top = {} }: { choice?: object; top?: object } = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', ...choice }],
  ...top,
});

/** Each marker the text writes, with the titles of the sources it links to. */
export const linked = (text: string, citations: Citation[]) =>
  linkMarkers(text, citations).map((span) => [
    text.slice(span.start, span.end),
    span.indices.map((i) => citations[i - 1]!.title),
  ]);

/** The citations the generic reader finds in `payload`, asserting it is the one that read them. */
export const readGeneric = (payload: unknown) => {
  const found = extractCitations(payload);
  assert.equal(found.format, 'generic', JSON.stringify(payload).slice(0, 300));
  return found;
};
