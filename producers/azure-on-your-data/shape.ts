/** The wire shape of format azure-on-your-data (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import {
  chatBody,
  chatMessage,
  count,
  jsonText,
  listOf,
  score,
  shaped,
  text,
  url,
} from '../../extension/test-support/hostile.js';

const azureDocument = shaped({
  title: text,
  filepath: text,
  url,
  chunk_id: fc.oneof(text, count),
  content: text,
  rerank_score: score,
  original_search_score: score,
  filter_reason: fc.constantFrom(null, 'score', 'rerank'),
});

const azureContext = shaped({
  citations: listOf(azureDocument),
  all_retrieved_documents: listOf(azureDocument),
  intent: text,
});

export const shape: fc.Arbitrary<unknown> = fc.oneof(
  chatBody(chatMessage({ context: azureContext })),
  shaped({
    choices: fc.tuple(
      shaped({ messages: listOf(shaped({ role: fc.constant('tool'), content: azureContext.map(jsonText) })) }),
    ),
  }),
  shaped({ context: azureContext }),
);
