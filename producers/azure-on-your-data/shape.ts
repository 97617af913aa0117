/** The wire shape of format azure-on-your-data (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const azureDocument = wire.shaped({
  title: wire.text,
  filepath: wire.text,
  url: wire.url,
  chunk_id: fc.oneof(wire.text, wire.count),
  content: wire.text,
  rerank_score: wire.score,
  original_search_score: wire.score,
  filter_reason: fc.constantFrom(null, 'score', 'rerank'),
});

const azureContext = wire.shaped({
  citations: wire.listOf(azureDocument),
  all_retrieved_documents: wire.listOf(azureDocument),
  intent: wire.text,
});

export const shape: fc.Arbitrary<unknown> = fc.oneof(
  wire.chatBody(wire.chatMessage({ context: azureContext })),
  wire.shaped({
    choices: fc.tuple(
      wire.shaped({
        messages: wire.listOf(wire.shaped({ role: fc.constant('tool'), content: azureContext.map(wire.jsonText) })),
      }),
    ),
  }),
  wire.shaped({ context: azureContext }),
);
