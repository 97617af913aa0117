/** The wire shape of format grok2api (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import { chatBody, chatMessage, listOf, shaped, text, url } from '../../extension/test-support/hostile.js';

export const shape: fc.Arbitrary<unknown> = chatBody(chatMessage(), {
  search_sources: listOf(shaped({ url, title: text, type: fc.constantFrom('web', 'x_post') })),
});
