/** The wire shape of format answer-spans (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

/** A quote cut from its source text, with offsets in some unit (or off by some). */
const quoted = fc
  .tuple(wire.text, fc.nat(40), fc.nat(40), fc.integer({ min: -2, max: 2 }))
  .map(([content, a, b, skew]) => {
    const [start, end] = [Math.min(a, b, content.length), Math.min(Math.max(a, b), content.length)];
    return { content, quote: content.slice(start, end), quote_start: start + skew, quote_end: end + skew };
  });

const spanCitation = fc
  .tuple(
    quoted,
    wire.shaped({
      section_id: fc.oneof(wire.text, wire.count),
      title: wire.text,
      page_start: wire.count,
      page_end: wire.count,
      quote: wire.text,
      quote_start: wire.count,
      quote_end: wire.count,
      content: wire.text,
    }),
  )
  .map(([quote, other]) => ({ ...quote, ...other }));

export const shape: fc.Arbitrary<unknown> = wire.chatBody(wire.chatMessage(), { citations: wire.listOf(spanCitation) });
