/** The wire shape of format ragflow (format.ts) for the core's property tests (core/properties.test.ts). */

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

const ragflowChunk = shaped({
  id: text,
  content: text,
  document_id: text,
  document_name: text,
  url,
  positions: listOf(listOf(count)),
  similarity: score,
});

export const shape: fc.Arbitrary<unknown> = chatBody(
  chatMessage({
    reference: fc.oneof(
      listOf(ragflowChunk),
      shaped({ chunks: fc.dictionary(fc.oneof(count.map(String), text), ragflowChunk) }),
      text,
    ),
  }),
);
