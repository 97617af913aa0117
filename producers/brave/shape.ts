/** The wire shape of format brave (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const braveTag = wire
  .shaped({ number: wire.count, url: wire.url, snippet: wire.text, start_index: wire.count, end_index: wire.count })
  .chain((tag) =>
    fc.constantFrom(
      `<citation>${wire.jsonText(tag)}</citation>`,
      `<citation>${wire.jsonText(tag)}`,
      `<usage>${wire.jsonText(tag)}</usage>`,
    ),
  );

export const shape: fc.Arbitrary<unknown> = wire.chatBody(
  wire.chatMessage({
    content: fc.array(fc.oneof(wire.text, braveTag), { maxLength: 6 }).map((parts) => parts.join('')),
  }),
);
