/** The wire shape of format xiaomi-mimo (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import { annotation, chatBody, chatMessage, listOf, shaped, text, url } from '../../extension/test-support/hostile.js';

const mimoAnnotation = shaped({
  site_name: text,
  summary: text,
  title: text,
  type: fc.constantFrom('url_citation', 'web_search_highlight'),
  url,
});

export const shape: fc.Arbitrary<unknown> = chatBody(
  chatMessage({ annotations: listOf(fc.oneof(mimoAnnotation, annotation)) }),
);
