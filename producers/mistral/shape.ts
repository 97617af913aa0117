/** The wire shape of format mistral (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import {
  answer,
  chatBody,
  chatMessage,
  count,
  hostileValue,
  listOf,
  shaped,
  text,
  url,
} from '../../extension/test-support/hostile.js';

// Mistral's content chunks: text, tool_reference (a page after the text it supports), reference (ids
// only) and thinking (whose list may name pages too).
const mistralToolReference = shaped({
  type: fc.constant('tool_reference'),
  tool: fc.oneof(fc.constantFrom('web_search', 'document_library'), text),
  title: text,
  url,
  favicon: url,
  description: text,
});

const mistralChunk = fc.oneof(
  shaped({ type: fc.constant('text'), text }),
  mistralToolReference,
  shaped({ type: fc.constant('reference'), reference_ids: listOf(fc.oneof(count, text)) }),
  shaped({ type: fc.constant('thinking'), thinking: listOf(fc.oneof(mistralToolReference, hostileValue)) }),
);

export const shape: fc.Arbitrary<unknown> = chatBody(chatMessage({ content: fc.oneof(listOf(mistralChunk), answer) }));
