/** The wire shape of format openai-responses (format.ts) for the core's property tests (core/properties.test.ts). */

import fc from 'fast-check';

import { annotation, answer, listOf, shaped, text, url } from '../../extension/test-support/hostile.js';

// A web_search_call with `include: ["web_search_call.action.sources"]`: the pages searched.
const webSearchCall = shaped({
  id: text,
  type: fc.constant('web_search_call'),
  status: text,
  action: shaped({
    type: fc.constantFrom('search', 'open_page', 'find_in_page'),
    query: text,
    queries: listOf(text),
    url,
    pattern: text,
    sources: listOf(shaped({ type: fc.constantFrom('url', 'api'), url, name: text })),
  }),
});

const responsesOutput = listOf(
  fc.oneof(
    shaped({
      type: fc.constant('message'),
      content: listOf(
        shaped({
          type: fc.constantFrom('output_text', 'refusal'),
          text: answer,
          annotations: listOf(annotation),
        }),
      ),
    }),
    webSearchCall,
  ),
);

export const shape: fc.Arbitrary<unknown> = fc.oneof(
  shaped({ object: fc.constant('response'), output: responsesOutput }),
  shaped({ type: fc.constant('response.output_text.annotation.added'), annotation }),
  shaped({ type: fc.constant('response.output_item.done'), item: webSearchCall }),
  shaped({ type: fc.constant('response.output_text.delta'), delta: answer }),
  shaped({ type: fc.constant('response.completed'), response: shaped({ output: responsesOutput }) }),
);
