/** The wire shape of format jina-deepsearch (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import {
  answer,
  chatBody,
  chatMessage,
  count,
  listOf,
  shaped,
  text,
  url,
} from '../../extension/test-support/hostile.js';

const jinaAnnotation = shaped({
  type: fc.constant('url_citation'),
  url_citation: shaped({ title: text, exactQuote: text, url, dateTime: text }),
});

const footnotes = fc
  .array(fc.tuple(count, text, text, url), { maxLength: 5 })
  .map((defs) =>
    defs.map(([n, quote, title, link]) => `\n\n[^${String(n)}]: ${quote} [${title}](${String(link)})`).join(''),
  );

export const shape: fc.Arbitrary<unknown> = chatBody(
  chatMessage({ annotations: listOf(jinaAnnotation), content: fc.tuple(answer, footnotes).map(([a, f]) => a + f) }),
);
