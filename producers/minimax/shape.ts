/** The wire shape of format minimax (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import {
  answer,
  chatMessage,
  count,
  jsonText,
  listOf,
  shaped,
  text,
  url,
} from '../../extension/test-support/hostile.js';

const minimaxResult = shaped({ no: count, url, title: text, content: text, web_icon: url });

const minimaxMessage = fc.oneof(
  shaped({
    role: fc.constant('assistant'),
    content: answer,
    annotations: listOf(
      shaped({ text: fc.oneof(text, fc.constantFrom('【5†source】', '【†source】', '【99999†')), url, quote: text }),
    ),
  }),
  shaped({
    role: fc.constant('tool'),
    tool_call_id: text,
    content: fc.oneof(text, listOf(minimaxResult).map(jsonText)),
  }),
);

export const shape: fc.Arbitrary<unknown> = shaped({
  id: text,
  object: fc.constantFrom('chat.completion', 'chat.completion.chunk'),
  choices: listOf(
    shaped({ index: count, finish_reason: text, message: chatMessage(), messages: listOf(minimaxMessage) }),
  ),
});
