/** The wire shape of format openrag (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import {
  chatBody,
  chatMessage,
  count,
  jsonText,
  listOf,
  score,
  shaped,
  text,
  url,
} from '../../extension/test-support/hostile.js';

const openragSource = shaped({
  source_type: fc.constantFrom('web', 'document'),
  file_url: url,
  chunk_url: url,
  url,
  filename: text,
  source: text,
  title: text,
  snippet: text,
  page_content: text,
  relevance_score: score,
  page: count,
});

const openragExtra = shaped({ sources: listOf(openragSource) });

export const shape: fc.Arbitrary<unknown> = fc.oneof(
  chatBody(chatMessage(), {
    extra: fc.oneof(openragExtra.map(jsonText), openragExtra, fc.constantFrom('{}', '{"sources": [')),
  }),
);
