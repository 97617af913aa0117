/** The wire shape of format litellm-knowledge-base (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import {
  chatBody,
  chatMessage,
  count,
  listOf,
  score,
  shaped,
  text,
  url,
} from '../../extension/test-support/hostile.js';

const vectorStoreResult = shaped({
  score,
  content: listOf(shaped({ type: fc.constantFrom('text', 'image'), text })),
  file_id: text,
  filename: text,
  attributes: shaped({ url, page: count }),
});

export const shape: fc.Arbitrary<unknown> = chatBody(
  chatMessage({
    provider_specific_fields: shaped({
      search_results: fc.oneof(listOf(shaped({ object: text, data: listOf(vectorStoreResult) })), text),
      vector_store_search_failures: listOf(shaped({ vector_store_id: text, error: text })),
    }),
  }),
);
