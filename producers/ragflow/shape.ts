/** The wire shape of format ragflow (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const ragflowChunk = wire.shaped({
  id: wire.text,
  content: wire.text,
  document_id: wire.text,
  document_name: wire.text,
  url: wire.url,
  positions: wire.listOf(wire.listOf(wire.count)),
  similarity: wire.score,
});

export const shape: fc.Arbitrary<unknown> = wire.chatBody(
  wire.chatMessage({
    reference: fc.oneof(
      wire.listOf(ragflowChunk),
      wire.shaped({ chunks: fc.dictionary(fc.oneof(wire.count.map(String), wire.text), ragflowChunk) }),
      wire.text,
    ),
  }),
);
