/** The wire shape of format perplexity (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import { chatBody, chatMessage, listOf, shaped, text, url } from '../../extension/test-support/hostile.js';

export const shape: fc.Arbitrary<unknown> = chatBody(chatMessage(), {
  search_results: listOf(
    shaped({ title: text, url, date: text, snippet: text, source: fc.constantFrom('web', 'attachment') }),
  ),
  citations: listOf(url),
});
