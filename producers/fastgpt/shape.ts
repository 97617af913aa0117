/** The wire shape of format fastgpt (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import { chatBody, chatMessage, count, listOf, score, shaped, text } from '../../extension/test-support/hostile.js';

const fastgptQuote = shaped({
  id: fc.oneof(text, fc.constantFrom('6650c0a1b2c3d4e5f6a7b801', '6650c0a1b2c3d4e5f6a7b802')),
  q: text,
  a: text,
  sourceName: text,
  sourceId: text,
  datasetId: text,
  collectionId: text,
  chunkIndex: count,
  updateTime: text,
  score: fc.oneof(
    score,
    listOf(
      shaped({ type: fc.constantFrom('embedding', 'fullText', 'reRank', 'rrf', 'other'), value: score, index: count }),
    ),
  ),
});

const fastgptNode = shaped({
  moduleName: text,
  moduleType: fc.constantFrom('datasetSearchNode', 'chatNode', 'tools'),
  quoteList: listOf(fastgptQuote),
  toolDetail: listOf(shaped({ moduleType: text, quoteList: listOf(fastgptQuote) })),
});

export const shape: fc.Arbitrary<unknown> = chatBody(chatMessage(), { responseData: listOf(fastgptNode) });
