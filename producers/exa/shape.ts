/** The wire shape of format exa (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import { chatBody, chatMessage, listOf, shaped, text, url } from '../../extension/test-support/hostile.js';

const exaCitation = shaped({
  id: fc.oneof(url, text),
  url,
  title: text,
  author: fc.oneof(text, fc.constant(null)),
  publishedDate: fc.oneof(text, fc.constant(null)),
  text,
  image: url,
  favicon: url,
});

export const shape: fc.Arbitrary<unknown> = chatBody(chatMessage({ citations: listOf(exaCitation) }), {
  citations: listOf(exaCitation),
});
