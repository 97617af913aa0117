import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createAccumulator } from '../../extension/src/core/accumulate.js';
import { splitCited } from '../../extension/src/core/cited.js';
import { extractCitations } from '../../extension/src/core/extract.js';

const cited = (url: string, text: string, at: number) => ({
  type: 'url_citation',
  url: `${url}?utm_source=openai`,
  title: `Title of ${url}`,
  start_index: at,
  end_index: at + text.length,
});
const search = (id: string, ...urls: unknown[]) => ({
  id,
  type: 'web_search_call',
  status: 'completed',
  action: { type: 'search', query: 'q', sources: urls.map((url) => ({ type: 'url', url })) },
});
const TEXT = 'Cited ([a](https://a.example/x?utm_source=openai)).';
const message = (annotations: unknown[]) => ({
  type: 'message',
  content: [{ type: 'output_text', text: TEXT, annotations }],
});
const A = cited('https://a.example/x', '([a](https://a.example/x?utm_source=openai))', 6);

test('searched pages the annotations do not cite follow them, without spans: retrieved, not cited', () => {
  const body = {
    object: 'response',
    output: [
      search('ws_1', 'https://a.example/x', 'https://b.example/', { type: 'api', name: 'oai-weather' }),
      { type: 'web_search_call', action: { type: 'open_page', url: 'https://c.example/page' } },
      { type: 'web_search_call', action: { type: 'find_in_page', pattern: 'p', url: 'https://b.example/' } },
      message([A]),
    ],
  };
  const { format, citations } = extractCitations(body);
  assert.equal(format, 'openai-responses');
  assert.deepEqual(
    citations.map((c) => [c.index, c.url, c.anchors.length]),
    [
      [1, 'https://a.example/x?utm_source=openai', 1], // searched without the tag: the same page
      [2, 'https://b.example/', 0],
      [3, 'https://c.example/page', 0],
    ],
  );
  assert.deepEqual(
    splitCited(TEXT, citations).retrieved.map((c) => c.index),
    [2, 3],
  );
});

test('a searched page that is no safe link, an api source, or no url at all is not kept', () => {
  const body = {
    output: [
      search('ws_1', 'javascript:alert(1)', null, 7, ['https://x.example/'], { href: 'https://x.example/' }),
      { type: 'web_search_call', action: 'not an object' },
      { type: 'web_search_call', action: { type: 'search', sources: 'not a list' } },
      message([A]),
    ],
  };
  assert.deepEqual(
    extractCitations(body).citations.map((c) => c.index),
    [1],
  );
  // Searched pages alone, no annotation: listed (nothing in the text tells cited from not).
  const searchedOnly = extractCitations({ output: [search('ws_1', 'https://b.example/')] });
  assert.deepEqual(
    searchedOnly.citations.map((c) => c.url),
    ['https://b.example/'],
  );
});

test('streamed: the web_search_call of output_item.done, even when response.completed has no output', () => {
  const events = [
    { type: 'response.output_item.added', item: { id: 'ws_1', type: 'web_search_call', action: { type: 'search' } } },
    { type: 'response.output_item.done', item: search('ws_1', 'https://a.example/x', 'https://b.example/') },
    { type: 'response.output_text.delta', delta: TEXT },
    { type: 'response.output_text.annotation.added', annotation: A },
    // Open WebUI drops `output` from a later round's response.completed.
    { type: 'response.completed', response: { id: 'resp_1', usage: {} } },
  ];
  const accumulator = createAccumulator();
  events.forEach((event) => accumulator.add(event));
  const { format, citations } = accumulator.result();
  assert.equal(format, 'openai-responses');
  assert.deepEqual(
    citations.map((c) => [c.url, c.anchors.length]),
    [
      ['https://a.example/x?utm_source=openai', 1],
      ['https://b.example/', 0],
    ],
  );
  // One event on its own.
  assert.deepEqual(
    extractCitations(events[1]).citations.map((c) => c.url),
    ['https://a.example/x', 'https://b.example/'],
  );
});

test('at most MAX_CITATIONS searched pages, read in linear time', () => {
  const urls = Array.from({ length: 5000 }, (_, i) => `https://e.example/${i}`);
  const result = extractCitations({ output: [search('ws_1', ...urls), message([A])] });
  assert.equal(result.citations.length, 1000);
  assert.equal(result.citations[0]!.anchors.length, 1);
});
