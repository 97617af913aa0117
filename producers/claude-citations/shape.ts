/** The wire shape of format claude-citations (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import { chatBody, chatMessage, count, listOf, shaped, text, url } from '../../extension/test-support/hostile.js';

const claudeCitation = shaped({
  type: fc.constantFrom(
    'char_location',
    'page_location',
    'content_block_location',
    'search_result_location',
    'web_search_result_location',
    'other',
  ),
  cited_text: text,
  document_index: count,
  document_title: text,
  start_page_number: count,
  end_page_number: count,
  url,
  source: url,
  title: text,
  supported_text: text,
});

export const shape: fc.Arbitrary<unknown> = chatBody(
  chatMessage({
    provider_specific_fields: shaped({
      citations: listOf(fc.oneof(listOf(claudeCitation), claudeCitation)),
      citation: claudeCitation,
      web_search_results: listOf(shaped({ content: listOf(shaped({ url, title: text, page_age: text })) })),
    }),
  }),
);
