/** The wire shape of format qianfan (declaration.json) for the core's property tests (core/properties.test.ts). */

import * as wire from '../../extension/test-support/hostile.js';

export const shape = wire.chatBody(wire.chatMessage(), {
  search_results: wire.listOf(wire.shaped({ index: wire.count, url: wire.url, title: wire.text })),
});
