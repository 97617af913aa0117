/** The wire shape of format gemini-grounding (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import { chatBody, chatMessage, count, listOf, shaped, text, url } from '../../extension/test-support/hostile.js';

const geminiMetadata = shaped({
  groundingChunks: listOf(
    shaped({ web: shaped({ uri: url, title: text }), retrievedContext: shaped({ uri: url, title: text, text }) }),
  ),
  groundingSupports: listOf(
    shaped({ segment: shaped({ startIndex: count, endIndex: count, text }), groundingChunkIndices: listOf(count) }),
  ),
  searchEntryPoint: shaped({ renderedContent: text }),
});

export const shape: fc.Arbitrary<unknown> = chatBody(chatMessage(), {
  vertex_ai_grounding_metadata: fc.oneof(listOf(geminiMetadata), geminiMetadata),
});
