/** The wire shape of format gemini-grounding (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const geminiMetadata = wire.shaped({
  groundingChunks: wire.listOf(
    wire.shaped({
      web: wire.shaped({ uri: wire.url, title: wire.text }),
      retrievedContext: wire.shaped({ uri: wire.url, title: wire.text, text: wire.text }),
    }),
  ),
  groundingSupports: wire.listOf(
    wire.shaped({
      segment: wire.shaped({ startIndex: wire.count, endIndex: wire.count, text: wire.text }),
      groundingChunkIndices: wire.listOf(wire.count),
    }),
  ),
  searchEntryPoint: wire.shaped({ renderedContent: wire.text }),
});

export const shape: fc.Arbitrary<unknown> = wire.chatBody(wire.chatMessage(), {
  vertex_ai_grounding_metadata: fc.oneof(wire.listOf(geminiMetadata), geminiMetadata),
});
