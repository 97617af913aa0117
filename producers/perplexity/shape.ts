/** The wire shape of format perplexity (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

export const shape: fc.Arbitrary<unknown> = wire.chatBody(wire.chatMessage(), {
  search_results: wire.listOf(
    wire.shaped({
      title: wire.text,
      url: wire.url,
      date: wire.text,
      snippet: wire.text,
      source: fc.constantFrom('web', 'attachment'),
    }),
  ),
  citations: wire.listOf(wire.url),
});
