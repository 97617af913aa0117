/** The wire shape of format grok2api (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

export const shape: fc.Arbitrary<unknown> = wire.chatBody(wire.chatMessage(), {
  search_sources: wire.listOf(wire.shaped({ url: wire.url, title: wire.text, type: fc.constantFrom('web', 'x_post') })),
});
