import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createAccumulator } from './accumulate.js';
import { createMerger } from './stream.js';

const sse = (chunk: string): string => `data: ${chunk}\n\n`;

test('a "__proto__" key in a streamed item is a field of its own: the merged item keeps its prototype', () => {
  // Assigned, it replaced the merged tool's prototype, and the Groq reader found inherited search results.
  const inherited = '{"search_results": {"results": [{"url": "https://inherited.example/", "title": "I"}]}}';
  for (const first of ['{"index": 0, "type": "search"}', `{"index": 0, "type": "search", "__proto__": ${inherited}}`]) {
    const accumulator = createAccumulator();
    accumulator.add(sse(`{"choices": [{"index": 0, "delta": {"content": "A", "executed_tools": [${first}]}}]}`));
    accumulator.add(
      sse(`{"choices": [{"index": 0, "delta": {"executed_tools": [{"index": 0, "__proto__": ${inherited}}]}}]}`),
    );
    assert.deepEqual(accumulator.result().citations, []);
  }
  const merger = createMerger();
  merger.add(sse('{"choices": [{"index": 0, "delta": {"executed_tools": [{"index": 0, "type": "search"}]}}]}'));
  merger.add(
    sse(`{"choices": [{"index": 0, "delta": {"executed_tools": [{"index": 0, "__proto__": ${inherited}}]}}]}`),
  );
  merger.add(sse(`{"choices": [{"index": 0, "delta": {"provider_specific_fields": {"__proto__": ${inherited}}}}]}`));
  const message = (merger.body().choices as Array<{ message: Record<string, unknown> }>)[0]!.message;
  for (const item of [(message.executed_tools as object[])[0]!, message.provider_specific_fields as object]) {
    assert.equal(Object.getPrototypeOf(item), Object.prototype);
    assert.equal((item as { search_results?: unknown }).search_results, undefined);
    assert.ok(Object.hasOwn(item, '__proto__'), 'kept as the data it is');
  }
  assert.equal(({} as { search_results?: unknown }).search_results, undefined, 'nothing global');
});

test('per-item updates merge by index across chunks; a body read mid-stream is not changed by later chunks', () => {
  const merger = createMerger();
  const tool = (index: number, fields: object) => ({
    choices: [{ index: 0, delta: { executed_tools: [{ index, ...fields }] } }],
  });
  merger.add(tool(0, { type: 'search', output: '' }));
  merger.add({ choices: [{ index: 0, delta: { provider_specific_fields: { a: 1 } } }] });
  const early = JSON.stringify(merger.body());
  merger.add(tool(1, { type: 'visit' }));
  merger.add(tool(0, { output: 'found', type: null }));
  merger.add({ choices: [{ index: 0, delta: { provider_specific_fields: { b: 2, citation: { x: 1 } } } }] });
  const message = (merger.body().choices as Array<{ message: Record<string, unknown> }>)[0]!.message;
  assert.deepEqual(message.executed_tools, [
    { index: 0, type: 'search', output: 'found' },
    { index: 1, type: 'visit' },
  ]);
  assert.deepEqual(message.provider_specific_fields, { a: 1, b: 2, citations: [[{ supported_text: '', x: 1 }]] });
  assert.equal(
    early,
    JSON.stringify({
      choices: [
        {
          index: 0,
          message: {
            executed_tools: [{ index: 0, type: 'search' }],
            provider_specific_fields: { a: 1 },
            role: 'assistant',
            content: '',
            annotations: [],
          },
        },
      ],
    }),
  );
  // A list that is not per item replaces the merged one; per-item updates then start from it.
  merger.add({ choices: [{ index: 0, delta: { executed_tools: [{ name: 'x' }] } }] });
  merger.add(tool(2, { type: 'search' }));
  const last = (merger.body().choices as Array<{ message: Record<string, unknown> }>)[0]!.message;
  assert.deepEqual(last.executed_tools, [{ name: 'x' }, { index: 2, type: 'search' }]);
});

test('the text read after every chunk is the text so far', () => {
  const merger = createMerger();
  let expected = '';
  for (let i = 0; i < 100; i++) {
    merger.add({ choices: [{ index: 0, delta: { content: `w${i} ` } }] });
    expected += `w${i} `;
    assert.equal(merger.text(), expected);
  }
  assert.equal((merger.body().choices as Array<{ message: { content: string } }>)[0]!.message.content, expected);
});

test("FastGPT's named events: progress is skipped, the flowResponses list is its responseData", () => {
  const merger = createMerger();
  merger.add('event: flowNodeStatus\ndata: {"status":"running","name":"知识库搜索"}\n\n');
  merger.add('event: answer\ndata: {"choices":[{"delta":{"content":"A"},"index":0}]}\n\n');
  merger.add('event: answer\ndata: [DONE]\n\n');
  merger.add('event: flowResponses\ndata: [{"moduleType":"datasetSearchNode","quoteList":[{"id":"q"}]}]\n\n');
  merger.add('data: [{"quoteList":[{"id":"not an event of FastGPT"}]}]\n\n');
  const body = merger.body();
  assert.deepEqual(body.responseData, [{ moduleType: 'datasetSearchNode', quoteList: [{ id: 'q' }] }]);
  assert.equal(merger.text(), 'A');
  assert.equal(body.status, undefined);
});

test("an Open WebUI source event on a line of its own, {event: {type: 'source', data}} (Hayhooks' create_source_event), is a source", () => {
  const source = {
    source: { name: 'Pipelines' },
    document: ['Haystack pipelines are graphs.'],
    metadata: [{ source: 'https://docs.haystack.example/pipelines' }],
  };
  const chunk = (content: string) =>
    sse(JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content } }] }));
  const ownLine = createAccumulator();
  ownLine.add(chunk('Pipelines are graphs [1].'));
  ownLine.add(sse(JSON.stringify({ event: { type: 'source', data: source } })));
  ownLine.add(chunk(''));
  // Beside the text, in a chunk of the answer: the text is kept too.
  const beside = createAccumulator();
  const withText = JSON.parse(chunk('Pipelines are graphs [1].').slice('data: '.length));
  beside.add(sse(JSON.stringify({ ...withText, event: { type: 'source', data: source } })));
  assert.equal(beside.text(), 'Pipelines are graphs [1].');
  for (const accumulator of [ownLine, beside]) {
    const found = accumulator.result();
    assert.equal(found.format, 'open-webui');
    assert.deepEqual(
      found.citations.map((c) => [c.url, c.refs]),
      [['https://docs.haystack.example/pipelines', [1]]],
    );
  }
});

test("a stream part that throws while placing what it kept leaves the stream's text and fields as merged", () => {
  const failing = () => ({
    into(): undefined {
      throw new Error('a bug in a producer part');
    },
  });
  const merger = createMerger([failing]);
  merger.add({ choices: [{ delta: { content: 'Rain [1].' } }], citations: ['https://r.example/'] });
  const body = merger.body();
  assert.deepEqual(body.citations, ['https://r.example/']);
  assert.equal((body.choices as Array<{ message: { content: string } }>)[0]?.message.content, 'Rain [1].');
});
