/** The wire shape of format exa (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const exaCitation = wire.shaped({
  id: fc.oneof(wire.url, wire.text),
  url: wire.url,
  title: wire.text,
  author: fc.oneof(wire.text, fc.constant(null)),
  publishedDate: fc.oneof(wire.text, fc.constant(null)),
  text: wire.text,
  image: wire.url,
  favicon: wire.url,
});

export const shape: fc.Arbitrary<unknown> = wire.chatBody(wire.chatMessage({ citations: wire.listOf(exaCitation) }), {
  citations: wire.listOf(exaCitation),
});
