/** The wire shape of format answer-spans (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import { chatBody, chatMessage, count, listOf, shaped, text } from '../../extension/test-support/hostile.js';

/** A quote cut from its source text, with offsets in some unit (or off by some). */
const quoted = fc.tuple(text, fc.nat(40), fc.nat(40), fc.integer({ min: -2, max: 2 })).map(([content, a, b, skew]) => {
  const [start, end] = [Math.min(a, b, content.length), Math.min(Math.max(a, b), content.length)];
  return { content, quote: content.slice(start, end), quote_start: start + skew, quote_end: end + skew };
});

const spanCitation = fc
  .tuple(
    quoted,
    shaped({
      section_id: fc.oneof(text, count),
      title: text,
      page_start: count,
      page_end: count,
      quote: text,
      quote_start: count,
      quote_end: count,
      content: text,
    }),
  )
  .map(([quote, other]) => ({ ...quote, ...other }));

export const shape: fc.Arbitrary<unknown> = chatBody(chatMessage(), { citations: listOf(spanCitation) });
