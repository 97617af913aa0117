/** The wire shape of format openai-responses (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import * as wire from '../../extension/test-support/hostile.js';

// A web_search_call with `include: ["web_search_call.action.sources"]`: the pages searched.
const webSearchCall = wire.shaped({
  id: wire.text,
  type: fc.constant('web_search_call'),
  status: wire.text,
  action: wire.shaped({
    type: fc.constantFrom('search', 'open_page', 'find_in_page'),
    query: wire.text,
    queries: wire.listOf(wire.text),
    url: wire.url,
    pattern: wire.text,
    sources: wire.listOf(wire.shaped({ type: fc.constantFrom('url', 'api'), url: wire.url, name: wire.text })),
  }),
});

const responsesOutput = wire.listOf(
  fc.oneof(
    wire.shaped({
      type: fc.constant('message'),
      content: wire.listOf(
        wire.shaped({
          type: fc.constantFrom('output_text', 'refusal'),
          text: wire.answer,
          annotations: wire.listOf(wire.annotation),
        }),
      ),
    }),
    webSearchCall,
  ),
);

export const shape: fc.Arbitrary<unknown> = fc.oneof(
  wire.shaped({ object: fc.constant('response'), output: responsesOutput }),
  wire.shaped({ type: fc.constant('response.output_text.annotation.added'), annotation: wire.annotation }),
  wire.shaped({ type: fc.constant('response.output_item.done'), item: webSearchCall }),
  wire.shaped({ type: fc.constant('response.output_text.delta'), delta: wire.answer }),
  wire.shaped({ type: fc.constant('response.completed'), response: wire.shaped({ output: responsesOutput }) }),
);
