/** The wire shape of format groq-compound (format.ts) for the core's property tests (core/properties.test.ts). */

import type fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const groqResult = wire.shaped({ title: wire.text, url: wire.url, content: wire.text, score: wire.score });

export const shape: fc.Arbitrary<unknown> = wire.chatBody(
  wire.chatMessage({
    executed_tools: wire.listOf(
      wire.shaped({
        index: wire.count,
        type: wire.text,
        search_results: wire.shaped({ results: wire.listOf(groqResult) }),
        browser_results: wire.listOf(groqResult),
      }),
    ),
  }),
);
