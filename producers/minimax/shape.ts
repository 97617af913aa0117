/** The wire shape of format minimax (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

const minimaxResult = wire.shaped({
  no: wire.count,
  url: wire.url,
  title: wire.text,
  content: wire.text,
  web_icon: wire.url,
});

const minimaxMessage = fc.oneof(
  wire.shaped({
    role: fc.constant('assistant'),
    content: wire.answer,
    annotations: wire.listOf(
      wire.shaped({
        text: fc.oneof(wire.text, fc.constantFrom('【5†source】', '【†source】', '【99999†')),
        url: wire.url,
        quote: wire.text,
      }),
    ),
  }),
  wire.shaped({
    role: fc.constant('tool'),
    tool_call_id: wire.text,
    content: fc.oneof(wire.text, wire.listOf(minimaxResult).map(wire.jsonText)),
  }),
);

export const shape: fc.Arbitrary<unknown> = wire.shaped({
  id: wire.text,
  object: fc.constantFrom('chat.completion', 'chat.completion.chunk'),
  choices: wire.listOf(
    wire.shaped({
      index: wire.count,
      finish_reason: wire.text,
      message: wire.chatMessage(),
      messages: wire.listOf(minimaxMessage),
    }),
  ),
});
