/** The wire shape of format claude-citations (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const claudeCitation = wire.shaped({
  type: fc.constantFrom(
    'char_location',
    'page_location',
    'content_block_location',
    'search_result_location',
    'web_search_result_location',
    'other',
  ),
  cited_text: wire.text,
  document_index: wire.count,
  document_title: wire.text,
  start_page_number: wire.count,
  end_page_number: wire.count,
  url: wire.url,
  source: wire.url,
  title: wire.text,
  supported_text: wire.text,
});

export const shape: fc.Arbitrary<unknown> = wire.chatBody(
  wire.chatMessage({
    provider_specific_fields: wire.shaped({
      citations: wire.listOf(fc.oneof(wire.listOf(claudeCitation), claudeCitation)),
      citation: claudeCitation,
      web_search_results: wire.listOf(
        wire.shaped({ content: wire.listOf(wire.shaped({ url: wire.url, title: wire.text, page_age: wire.text })) }),
      ),
    }),
  }),
);
