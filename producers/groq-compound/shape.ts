/** The wire shape of format groq-compound (format.ts) for the core's property tests (core/properties.test.ts). */

import type fc from 'fast-check';

import {
  chatBody,
  chatMessage,
  count,
  listOf,
  score,
  shaped,
  text,
  url,
} from '../../extension/test-support/hostile.js';

const groqResult = shaped({ title: text, url, content: text, score });

export const shape: fc.Arbitrary<unknown> = chatBody(
  chatMessage({
    executed_tools: listOf(
      shaped({
        index: count,
        type: text,
        search_results: shaped({ results: listOf(groqResult) }),
        browser_results: listOf(groqResult),
      }),
    ),
  }),
);
