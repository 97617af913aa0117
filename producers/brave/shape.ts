/** The wire shape of format brave (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import { chatBody, chatMessage, count, jsonText, shaped, text, url } from '../../extension/test-support/hostile.js';

const braveTag = shaped({ number: count, url, snippet: text, start_index: count, end_index: count }).chain((tag) =>
  fc.constantFrom(
    `<citation>${jsonText(tag)}</citation>`,
    `<citation>${jsonText(tag)}`,
    `<usage>${jsonText(tag)}</usage>`,
  ),
);

export const shape: fc.Arbitrary<unknown> = chatBody(
  chatMessage({ content: fc.array(fc.oneof(text, braveTag), { maxLength: 6 }).map((parts) => parts.join('')) }),
);
