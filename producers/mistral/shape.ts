/** The wire shape of format mistral (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

// Mistral's content chunks: text, tool_reference (a page after the text it supports), reference (ids
// only) and thinking (whose list may name pages too).
const mistralToolReference = wire.shaped({
  type: fc.constant('tool_reference'),
  tool: fc.oneof(fc.constantFrom('web_search', 'document_library'), wire.text),
  title: wire.text,
  url: wire.url,
  favicon: wire.url,
  description: wire.text,
});

const mistralChunk = fc.oneof(
  wire.shaped({ type: fc.constant('text'), text: wire.text }),
  mistralToolReference,
  wire.shaped({ type: fc.constant('reference'), reference_ids: wire.listOf(fc.oneof(wire.count, wire.text)) }),
  wire.shaped({
    type: fc.constant('thinking'),
    thinking: wire.listOf(fc.oneof(mistralToolReference, wire.hostileValue)),
  }),
);

export const shape: fc.Arbitrary<unknown> = wire.chatBody(
  wire.chatMessage({ content: fc.oneof(wire.listOf(mistralChunk), wire.answer) }),
);
