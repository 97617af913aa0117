/** The wire shape of format nvidia-rag (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import { chatBody, chatMessage, count, listOf, score, shaped, text } from '../../extension/test-support/hostile.js';

const nvidiaResult = shaped({
  document_id: text,
  document_name: text,
  document_type: fc.constantFrom('text', 'image', 'table', 'chart'),
  content: text,
  score,
  metadata: shaped({ page_number: count, description: text }),
});

export const shape: fc.Arbitrary<unknown> = chatBody(chatMessage(), {
  citations: shaped({ total_results: count, results: listOf(nvidiaResult) }),
});
