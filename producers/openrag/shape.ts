/** The wire shape of format openrag (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const openragSource = wire.shaped({
  source_type: fc.constantFrom('web', 'document'),
  file_url: wire.url,
  chunk_url: wire.url,
  url: wire.url,
  filename: wire.text,
  source: wire.text,
  title: wire.text,
  snippet: wire.text,
  page_content: wire.text,
  relevance_score: wire.score,
  page: wire.count,
});

const openragExtra = wire.shaped({ sources: wire.listOf(openragSource) });

export const shape: fc.Arbitrary<unknown> = fc.oneof(
  wire.chatBody(wire.chatMessage(), {
    extra: fc.oneof(openragExtra.map(wire.jsonText), openragExtra, fc.constantFrom('{}', '{"sources": [')),
  }),
);
