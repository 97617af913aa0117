/** The wire shape of format nvidia-rag (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const nvidiaResult = wire.shaped({
  document_id: wire.text,
  document_name: wire.text,
  document_type: fc.constantFrom('text', 'image', 'table', 'chart'),
  content: wire.text,
  score: wire.score,
  metadata: wire.shaped({ page_number: wire.count, description: wire.text }),
});

export const shape: fc.Arbitrary<unknown> = wire.chatBody(wire.chatMessage(), {
  citations: wire.shaped({ total_results: wire.count, results: wire.listOf(nvidiaResult) }),
});
