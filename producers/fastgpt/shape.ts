/** The wire shape of format fastgpt (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const fastgptQuote = wire.shaped({
  id: fc.oneof(wire.text, fc.constantFrom('6650c0a1b2c3d4e5f6a7b801', '6650c0a1b2c3d4e5f6a7b802')),
  q: wire.text,
  a: wire.text,
  sourceName: wire.text,
  sourceId: wire.text,
  datasetId: wire.text,
  collectionId: wire.text,
  chunkIndex: wire.count,
  updateTime: wire.text,
  score: fc.oneof(
    wire.score,
    wire.listOf(
      wire.shaped({
        type: fc.constantFrom('embedding', 'fullText', 'reRank', 'rrf', 'other'),
        value: wire.score,
        index: wire.count,
      }),
    ),
  ),
});

const fastgptNode = wire.shaped({
  moduleName: wire.text,
  moduleType: fc.constantFrom('datasetSearchNode', 'chatNode', 'tools'),
  quoteList: wire.listOf(fastgptQuote),
  toolDetail: wire.listOf(wire.shaped({ moduleType: wire.text, quoteList: wire.listOf(fastgptQuote) })),
});

export const shape: fc.Arbitrary<unknown> = wire.chatBody(wire.chatMessage(), {
  responseData: wire.listOf(fastgptNode),
});
