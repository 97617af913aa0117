import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createAccumulator } from './accumulate.js';
import { extractCitations } from './extract.js';
import { STORED_KEY } from './formats/open-webui.js';

const chat = (message: object, top: object = {}) => ({
  choices: [{ index: 0, message: { role: 'assistant', content: 'x', ...message } }],
  ...top,
});

test('nothing to find: empty result, for any shape', () => {
  for (const payload of [
    undefined,
    null,
    0,
    '',
    'not json',
    '{}',
    [],
    {},
    { choices: null },
    { extra: '{}' },
    { extra: '{"sources": []}' },
    { extra: '{"other": 1}' },
    { search_sources: null },
    { search_results: [] },
    { citations: [1, 2] },
    chat({ annotations: [{ type: 'file_path' }] }),
  ]) {
    assert.deepEqual(extractCitations(payload), { format: null, citations: [] }, JSON.stringify(payload));
  }
});

test('sources that are there but unreadable are reported by format, never guessed', () => {
  for (const [payload, format] of [
    [{ extra: 'not json' }, 'openrag'],
    [{ extra: 42 }, 'openrag'],
    [{ extra: '{"sources": "nope"}' }, 'openrag'],
    [{ extra: '{"sources": [null, 7]}' }, 'openrag'],
    [{ search_results: [null, 'x'] }, 'perplexity'],
    [{ search_results: {} }, 'perplexity'],
    [{ search_sources: 'x' }, 'grok2api'],
    [{ search_sources: [{ url: null }] }, 'grok2api'],
  ] as const) {
    assert.deepEqual(
      extractCitations(payload),
      { format: null, citations: [], unreadable: format },
      JSON.stringify(payload),
    );
  }
  const stream = createAccumulator();
  for (const extra of ['{}', '{"sources": [', '{}'])
    stream.add({ choices: [{ index: 0, delta: { content: 'x' } }], extra });
  assert.equal(stream.result().unreadable, 'openrag'); // the last non-empty `extra` is the one read
});

test('nulls and wrong types inside sources are skipped, never invented', () => {
  const { citations } = extractCitations({
    search_results: [{ title: null, url: 7, snippet: ['x'] }, { url: 'https://ok.example/a' }],
  });
  assert.deepEqual(
    citations.map((c) => [c.title, c.url, c.snippet]),
    [
      ['Untitled source', null, null],
      ['ok.example/a', 'https://ok.example/a', null],
    ],
  );
  assert.equal(extractCitations({ search_results: [{}] }, { locale: 'fr' }).citations[0]!.title, 'Source sans titre');
  assert.equal(extractCitations({ search_results: [{}] }, { locale: 'zh-CN' }).citations[0]!.title, '未命名来源');
});

test('one URL cited by several annotations is one citation with every span', () => {
  const annotation = (start: number) => ({
    type: 'url_citation',
    url_citation: { url: 'https://a.example/', title: 'A', start_index: start, end_index: start + 2 },
  });
  const { citations } = extractCitations(
    chat({
      annotations: [annotation(0), annotation(5), { type: 'url_citation', url: 'https://b.example/', title: 'B' }],
    }),
  );
  assert.deepEqual(
    citations.map((c) => [c.index, c.title, c.anchors.length]),
    [
      [1, 'A', 2],
      [2, 'B', 0],
    ],
  );
});

test('duplicate sources merge: best score kept, pages merged', () => {
  const doc = (page: number, score: number) => ({
    source_type: 'document',
    file_url: 'https://f.example/r.pdf',
    filename: 'r.pdf',
    page,
    relevance_score: score,
  });
  const { citations } = extractCitations({
    extra: JSON.stringify({ sources: [doc(3, 1.5), doc(7, 4.2), doc(3, 0.1)] }),
  });
  assert.equal(citations.length, 2); // no chunk_url: file and page make the identity
  const native = extractCitations({
    sources: [
      {
        source: { id: 'f1', name: 'r.pdf' },
        document: ['p3', 'p7', 'p5'],
        metadata: [
          { source: 'f1', page: 2 },
          { source: 'f1', page: 6 },
          { source: 'f1', page: 4 },
        ],
        distances: [0.4, 0.9, 0.2],
      },
    ],
  }).citations;
  assert.deepEqual(
    native.map((c) => [c.title, c.pages, c.page, c.pageEnd, c.score, c.scoreKind, c.snippet]),
    [['r.pdf', [3, 5, 7], 3, 7, 0.9, 'similarity', 'p7']],
  );
});

test('a producer with no order is ranked by score', () => {
  const context = {
    all_retrieved_documents: [
      { content: 'low', title: 'Low', rerank_score: 0.5, filter_reason: null },
      { content: 'out', title: 'Filtered', rerank_score: 3.9, filter_reason: 'rerank' },
      { content: 'high', title: 'High', rerank_score: 3.1, filter_reason: null },
    ],
  };
  const { citations } = extractCitations(chat({ context }));
  assert.deepEqual(
    citations.map((c) => [c.index, c.title, c.score]),
    [
      [1, 'High', 3.1],
      [2, 'Low', 0.5],
    ],
  );
});

test('bracketed, unicode and hostile titles come through as text', () => {
  const titles = ['[1] Intro (draft) ]]', '𝕏/@user: 😀 l’été', '<img src=x onerror=alert(1)>'];
  const { citations } = extractCitations({
    search_results: titles.map((title, i) => ({ title, url: `https://e.example/${i}` })),
  });
  assert.deepEqual(
    citations.map((c) => c.title),
    titles,
  );
});

test('unsafe links are dropped but the source is kept', () => {
  const { citations } = extractCitations({ citations: ['javascript:alert(1)', 'https://ok.example/'] });
  assert.deepEqual(
    citations.map((c) => [c.index, c.url]),
    [
      [1, null],
      [2, 'https://ok.example/'],
    ],
  );
});

test('Azure: the legacy tool message, and scores merged by title', () => {
  const legacy = {
    choices: [
      {
        messages: [
          {
            role: 'tool',
            content: JSON.stringify({ citations: [{ content: 'c', title: 'T', url: 'https://t.example/' }] }),
          },
          { role: 'assistant', content: 'x [doc1]' },
        ],
      },
    ],
  };
  assert.deepEqual(
    extractCitations(legacy).citations.map((c) => c.title),
    ['T'],
  );
  const scored = chat({
    context: {
      citations: [{ content: 'c1', title: 'T', chunk_id: '0' }],
      all_retrieved_documents: [{ content: 'other', title: 'T', chunk_id: '0', original_search_score: 9.5 }],
    },
  });
  assert.deepEqual(
    extractCitations(scored).citations.map((c) => [c.score, c.scoreKind]),
    [[9.5, 'bm25']],
  );
});

test('Open WebUI native sources: grouping and numbering as Open WebUI does', () => {
  const sources = [
    {
      source: { name: 'https://w.example/a', type: 'web_search_results' },
      document: ['a1', 'b1'],
      metadata: [{ source: 'https://w.example/a' }, { source: 'https://w.example/b', name: 'B page' }],
    },
    { source: { id: 'file-1', name: 'notes.md' }, document: ['n'], metadata: [{ file_id: 'file-1' }] },
  ];
  const { format, citations } = extractCitations({ role: 'assistant', content: 'x [3]', sources });
  assert.equal(format, 'open-webui');
  assert.deepEqual(
    citations.map((c) => [c.index, c.title, c.url, c.kind]),
    [
      [1, 'w.example/a', 'https://w.example/a', 'web'],
      [2, 'B page', 'https://w.example/b', 'web'],
      [3, 'notes.md', null, 'document'],
    ],
  );
});

test('a citation stored by the extension reads back the same, re-checked', () => {
  const original = extractCitations({
    citations: [
      { section_id: 's1', title: 'S', page_start: 2, quote: 'abc', quote_start: 2, quote_end: 5, content: 'xxabcxx' },
    ],
  }).citations[0]!;
  const stored = { ...original, url: 'javascript:alert(1)', kind: 'evil', scoreKind: 'fake' };
  const { citations } = extractCitations({
    sources: [
      {
        source: { id: original.id, name: original.title },
        document: ['xxabcxx'],
        metadata: [{ source: original.id, [STORED_KEY]: stored }],
      },
    ],
  });
  assert.deepEqual(citations[0], { ...original, format: 'open-webui', kind: 'document' });
});

test('accumulator: last non-empty replacing field, "{}" ignored, annotations appended once', () => {
  const accumulator = createAccumulator();
  const sources = JSON.stringify({ sources: [{ source_type: 'web', url: 'https://w.example/', title: 'W' }] });
  accumulator.add({ choices: [{ delta: { role: 'assistant', content: '' } }], extra: '{}' });
  accumulator.add({ choices: [{ delta: { content: 'Hello' } }], extra: sources });
  accumulator.add({ choices: [{ delta: {}, finish_reason: 'stop' }], extra: '{}' });
  accumulator.add('data: [DONE]');
  assert.deepEqual(
    accumulator.result().citations.map((c) => c.title),
    ['W'],
  );
  assert.equal(accumulator.text(), 'Hello');

  const annotated = createAccumulator();
  const annotation = {
    type: 'url_citation',
    url_citation: { url: 'https://a.example/', title: 'A', start_index: 0, end_index: 1 },
  };
  annotated.add({ choices: [{ delta: { content: 'A' } }] });
  annotated.add({ choices: [{ delta: { annotations: [annotation] } }] });
  annotated.add({ choices: [{ delta: { annotations: [annotation] } }] }); // a proxy repeating itself
  assert.equal(annotated.result().citations[0]!.anchors.length, 1);
});

test('accumulator: Azure context read wherever it comes, malformed chunks skipped', () => {
  const accumulator = createAccumulator();
  accumulator.add('data: {not json');
  accumulator.add(42);
  accumulator.add({ choices: [{ delta: { content: 'Walk [doc1].' } }] });
  accumulator.add({ choices: [{ delta: { context: { citations: [{ content: 'c', title: 'Late context' }] } } }] });
  accumulator.add({ choices: [{ delta: {}, finish_reason: 'stop' }] });
  assert.deepEqual(
    accumulator.result().citations.map((c) => c.title),
    ['Late context'],
  );
});

test('Responses events read on their own', () => {
  const added = {
    type: 'response.output_text.annotation.added',
    annotation: { type: 'url_citation', url: 'https://r.example/', title: 'R', start_index: 0, end_index: 3 },
  };
  assert.deepEqual(
    extractCitations(added).citations.map((c) => c.title),
    ['R'],
  );
});

test('new producers: unreadable sources are reported, empty defaults and broken tags are not guessed at', () => {
  assert.deepEqual(extractCitations(chat({ reference: 'see the knowledge base' })), {
    format: null,
    citations: [],
    unreadable: 'ragflow',
  });
  assert.deepEqual(extractCitations(chat({ reference: [] })), { format: null, citations: [] }); // nothing retrieved
  assert.deepEqual(extractCitations({ citations: { total_results: 0, results: [] } }), { format: null, citations: [] });
  const tags =
    '<citation>{"number": 1, "url": "https://a.example/"}</citation> <citation>{"number": 2, "url"</citation> ' +
    '<citation>{"number": 3}</citation> <citation>{"number": 4, "url": "https://b.example/"}';
  const { format, citations } = extractCitations(chat({ content: tags }));
  assert.equal(format, 'brave');
  assert.deepEqual(
    citations.map((c) => [c.url, c.refs]),
    [['https://a.example/', [1]]],
  );
});

test('a stream keeps the first non-empty NVIDIA citations and merges Groq tools by index', () => {
  const stream = createAccumulator();
  const results = [
    { document_name: 'r.pdf', document_type: 'text', content: 'x', score: 0.5, metadata: { page_number: 2 } },
  ];
  stream.add({ choices: [{ index: 0, delta: { content: 'A' } }], citations: { total_results: 1, results } });
  stream.add({ choices: [{ index: 0, delta: { content: 'B' } }], citations: { total_results: 0, results: [] } });
  assert.deepEqual(
    stream.result().citations.map((c) => [c.title, c.page]),
    [['r.pdf', 2]],
  );

  const groq = createAccumulator();
  const tool = (index: number, results: object[]) => ({
    choices: [{ index: 0, delta: { executed_tools: [{ index, type: 'search', search_results: { results } }] } }],
  });
  groq.add(tool(0, [])); // a search starts: no results yet
  groq.add(tool(0, [{ title: 'T', url: 'https://a.example/', content: 'c', score: 0.9 }]));
  groq.add(tool(1, [{ title: 'U', url: 'https://b.example/', content: 'd', score: 0.8 }])); // a second search
  assert.deepEqual(
    groq.result().citations.map((c) => [c.title, c.url]),
    [
      ['T', 'https://a.example/'],
      ['U', 'https://b.example/'],
    ],
  );
});
