/** The wire shape of format volcengine-ark (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import {
  chatBody,
  chatMessage,
  count,
  hostileValue,
  listOf,
  shaped,
  text,
  url,
} from '../../extension/test-support/hostile.js';

const arkReference = shaped({
  url,
  mobile_url: url,
  logo_url: url,
  site_name: text,
  title: text,
  summary: text,
  publish_time: text,
  cover_image: shaped({ url, width: count, height: count }),
  doc_id: text,
  doc_name: text,
  doc_title: text,
  chunk_id: fc.oneof(text, count),
  chunk_title: text,
  page_nums: fc.oneof(text, count, listOf(count), fc.constantFrom('3', '3,4', '[3, 4]', '0', '9007199254740993')),
  file_name: text,
  extra: hostileValue,
});

export const shape: fc.Arbitrary<unknown> = chatBody(chatMessage(), { references: listOf(arkReference) });
