/** The wire shape of format xiaomi-mimo (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const mimoAnnotation = wire.shaped({
  site_name: wire.text,
  summary: wire.text,
  title: wire.text,
  type: fc.constantFrom('url_citation', 'web_search_highlight'),
  url: wire.url,
});

export const shape: fc.Arbitrary<unknown> = wire.chatBody(
  wire.chatMessage({ annotations: wire.listOf(fc.oneof(mimoAnnotation, wire.annotation)) }),
);
