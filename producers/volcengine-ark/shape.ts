/** The wire shape of format volcengine-ark (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const arkReference = wire.shaped({
  url: wire.url,
  mobile_url: wire.url,
  logo_url: wire.url,
  site_name: wire.text,
  title: wire.text,
  summary: wire.text,
  publish_time: wire.text,
  cover_image: wire.shaped({ url: wire.url, width: wire.count, height: wire.count }),
  doc_id: wire.text,
  doc_name: wire.text,
  doc_title: wire.text,
  chunk_id: fc.oneof(wire.text, wire.count),
  chunk_title: wire.text,
  page_nums: fc.oneof(
    wire.text,
    wire.count,
    wire.listOf(wire.count),
    fc.constantFrom('3', '3,4', '[3, 4]', '0', '9007199254740993'),
  ),
  file_name: wire.text,
  extra: wire.hostileValue,
});

export const shape: fc.Arbitrary<unknown> = wire.chatBody(wire.chatMessage(), {
  references: wire.listOf(arkReference),
});
