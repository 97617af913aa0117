/** The wire shape of format litellm-knowledge-base (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const vectorStoreResult = wire.shaped({
  score: wire.score,
  content: wire.listOf(wire.shaped({ type: fc.constantFrom('text', 'image'), text: wire.text })),
  file_id: wire.text,
  filename: wire.text,
  attributes: wire.shaped({ url: wire.url, page: wire.count }),
});

export const shape: fc.Arbitrary<unknown> = wire.chatBody(
  wire.chatMessage({
    provider_specific_fields: wire.shaped({
      search_results: fc.oneof(
        wire.listOf(wire.shaped({ object: wire.text, data: wire.listOf(vectorStoreResult) })),
        wire.text,
      ),
      vector_store_search_failures: wire.listOf(wire.shaped({ vector_store_id: wire.text, error: wire.text })),
    }),
  }),
);
