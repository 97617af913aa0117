/** The wire shape of format jina-deepsearch (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const jinaAnnotation = wire.shaped({
  type: fc.constant('url_citation'),
  url_citation: wire.shaped({ title: wire.text, exactQuote: wire.text, url: wire.url, dateTime: wire.text }),
});

const footnotes = fc
  .array(fc.tuple(wire.count, wire.text, wire.text, wire.url), { maxLength: 5 })
  .map((defs) =>
    defs.map(([n, quote, title, link]) => `\n\n[^${String(n)}]: ${quote} [${title}](${String(link)})`).join(''),
  );

export const shape: fc.Arbitrary<unknown> = wire.chatBody(
  wire.chatMessage({
    annotations: wire.listOf(jinaAnnotation),
    content: fc.tuple(wire.answer, footnotes).map(([a, f]) => a + f),
  }),
);
