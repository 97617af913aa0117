/** The wire shape of format lightrag (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

// LightRAG's references list closing the answer: a heading of its forms, then lines of [n], [^n],
// [KG] or [DC] with any title (a web address, one spanning lines), or any text at all.
const referencesList = fc
  .tuple(
    fc.constantFrom('### References', '**References**', 'References:', '## References ##', '```\n### References'),
    fc.array(
      fc.oneof(
        fc
          .tuple(
            fc.constantFrom('- ', '* ', '1. ', '', '  - '),
            fc.constantFrom('[1]', '[^2]', '[KG]', '[DC]', '[0]'),
            fc.oneof(wire.text, wire.url),
          )
          .map(([bullet, mark, title]) => `${bullet}${mark} ${String(title)}`),
        wire.text,
      ),
      { maxLength: 5 },
    ),
  )
  .map(([heading, lines]) => `\n\n${heading}\n\n${lines.join('\n')}`);

export const shape: fc.Arbitrary<unknown> = wire.chatBody(
  wire.chatMessage({ content: fc.tuple(wire.answer, referencesList).map(([a, r]) => a + r) }),
);
