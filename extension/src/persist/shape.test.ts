import assert from 'node:assert/strict';
import { test } from 'node:test';

import { validateDeclarations } from '../core/declared.js';
import { extractCitations } from '../core/index.js';
import { hasStoredCitations, isSourceEventBody, MAX_EVENT_CHARS, sourceEventBody, toNativeSource } from './shape.js';

const captured = extractCitations({
  extra: JSON.stringify({
    sources: [
      {
        source_type: 'document',
        file_url: 'https://rag.example/static/r.pdf',
        chunk_url: 'https://rag.example/extract/458812345678901234',
        filename: 'r.pdf',
        page: 3,
        relevance_score: 4.8,
      },
      { source_type: 'web', url: 'https://w.example/a', title: 'Web page', snippet: 'A snippet.' },
    ],
  }),
}).citations;
const quoted = extractCitations({
  citations: [
    {
      section_id: 's',
      title: 'S',
      page_start: 2,
      page_end: 4,
      quote: 'kept ten years',
      quote_start: -1,
      quote_end: -1,
      content: 'Records are kept ten years.',
    },
  ],
}).citations;

// A list a declaration read in the text: where it says the list is stays with its sources, for the
// list to be hidden after a reload too.
const listed = extractCitations(
  { choices: [{ message: { content: 'Lang [1].\n\n### Weiterlesen\n- [Rhein](https://de.example/Rhein)' } }] },
  {
    declared: validateDeclarations({ backends: [{ models: ['m'], sources: { text: { heading: 'Weiterlesen' } } }] })
      .backends[0]!,
  },
).citations;

test('stored citations read back as they were captured, without raw data', () => {
  assert.deepEqual(listed[0]?.listedUnder, { kind: 'heading', heading: 'Weiterlesen' });
  for (const citations of [captured, quoted, listed]) {
    const stored = toNativeSource(citations);
    const reread = extractCitations({ sources: [stored] }).citations;
    assert.deepEqual(
      reread,
      citations.map((c) => ({ ...c, format: 'open-webui' })),
    );
    assert.ok(hasStoredCitations([stored]));
  }
  assert.equal(
    hasStoredCitations([{ source: { name: 'native' }, document: ['x'], metadata: [{ source: 'x' }] }]),
    false,
  );
});

test('a source without a title is stored without the fallback label: a reader in another language reads its own', () => {
  // NVIDIA RAG's result names no document here: nothing to title it by.
  const payload = {
    citations: {
      total_results: 1,
      results: [{ document_type: 'text', content: 'Retention is ten years.', metadata: {} }],
    },
  };
  const [untitled] = extractCitations(payload, { locale: 'fr' }).citations;
  assert.equal(untitled?.title, 'Source sans titre');
  const stored = toNativeSource([untitled!]);
  assert.equal(extractCitations({ sources: [stored] }, { locale: 'de' }).citations[0]?.title, 'Unbenannte Quelle');
});

test("Open WebUI's own view of the stored event reads sensibly", () => {
  const stored = toNativeSource(captured);
  assert.deepEqual(
    stored.metadata.map((m) => [m.source, m.name, m.page]),
    [
      ['https://rag.example/extract/458812345678901234', 'r.pdf', 2], // Open WebUI shows page + 1
      ['https://w.example/a', 'Web page', undefined],
    ],
  );
  assert.deepEqual(stored.document, ['r.pdf', 'A snippet.']);
  assert.equal(stored.distances, undefined); // a reranker score is never shown as a percentage
});

test('two sources of one name are stored under distinct names: Open WebUI 0.6–0.7 numbers buttons as we do', () => {
  const chunks = extractCitations({
    extra: JSON.stringify({
      sources: [
        { source_type: 'document', chunk_url: 'https://rag.example/extract/1', filename: 'r.pdf', page: 3 },
        { source_type: 'document', chunk_url: 'https://rag.example/extract/2', filename: 'r.pdf', page: 7 },
      ],
    }),
  }).citations;
  const stored = toNativeSource(chunks);
  assert.deepEqual(
    stored.metadata.map((m) => m.name),
    ['r.pdf', 'r.pdf (2)'],
  );
  assert.deepEqual(
    extractCitations({ sources: [stored] }).citations.map((c) => c.title),
    ['r.pdf', 'r.pdf'],
  );
});

/** What Open WebUI keeps of a stored event: it drops NUL bytes and lone surrogates (sanitize_text_for_db). */
const afterOpenWebuiStores = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value).replace(
      /\\u0000|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/gi,
      '',
    ),
  );

test("regression: [N] keeps pointing at the producer's source N after a reload, not at the N-th stored one", () => {
  // The fourth result repeats the first: the producer's [4] is our source 1.
  const live = extractCitations({
    search_results: [
      { title: 'A', url: 'https://a.example/' },
      { title: 'B', url: 'https://b.example/' },
      { title: 'C', url: 'https://c.example/' },
      { title: 'A again', url: 'https://a.example/' },
    ],
  }).citations;
  const reread = extractCitations({ sources: [afterOpenWebuiStores(toNativeSource(live))] }).citations;
  assert.deepEqual(
    reread.map((c) => [c.index, c.refs]),
    [
      [1, [1, 4]],
      [2, [2]],
      [3, [3]],
    ],
  );
  assert.deepEqual(
    reread.map((c) => c.refs),
    live.map((c) => c.refs),
  );
});

test('regression: sources differing only by what Open WebUI does not store read the same after a reload', () => {
  const live = extractCitations({
    search_results: [
      { title: 'javascript:x', url: 'javascript:x', snippet: 'one' },
      { title: 'java\u0000script:x', url: 'java\u0000script:x', snippet: 'two' },
      { title: 'lone \ud800 surrogate', url: 'https://s.example/', snippet: 'three \udc00' },
    ],
  }).citations;
  const reread = extractCitations({ sources: [afterOpenWebuiStores(toNativeSource(live))] }).citations;
  assert.deepEqual(
    live.map((c) => [c.title, c.snippet]),
    [
      ['javascript:x', 'one'],
      ['java\ufffdscript:x', 'two'],
      ['lone \ufffd surrogate', 'three \ufffd'],
    ],
  );
  assert.deepEqual(
    reread,
    live.map((c) => ({ ...c, format: 'open-webui' })),
  );
});

test('regression: a source Open WebUI and the extension both stored reads back as the extension showed it', () => {
  const live = extractCitations({
    choices: [
      {
        message: {
          content: 'See [1] and [2].',
          annotations: [
            {
              type: 'url_citation',
              url_citation: { url: 'https://a.example/x', title: 'https://a.example/x', start_index: 4, end_index: 7 },
            },
            {
              type: 'url_citation',
              url_citation: { url: 'https://b.example/', title: 'B', start_index: 12, end_index: 15 },
            },
          ],
        },
      },
    ],
  }).citations;
  // What Open WebUI stores of a streamed url_citation: its URL as the name.
  const openWebuis = [
    {
      source: { name: 'https://b.example/', url: 'https://b.example/' },
      document: ['B'],
      metadata: [{ source: 'https://b.example/', name: 'https://b.example/' }],
    },
  ];
  const reread = extractCitations({ sources: [...openWebuis, afterOpenWebuiStores(toNativeSource(live))] }).citations;
  assert.deepEqual(
    reread.map((c) => [c.index, c.title, c.url]),
    live.map((c) => [c.index, c.title, c.url]),
  );
});

test("regression: a source only Open WebUI stored comes after the extension's, shifting none of their numbers", () => {
  const live = extractCitations({
    search_results: [
      { title: 'A', url: 'https://a.example/' },
      { title: 'B', url: 'https://b.example/' },
    ],
  }).citations;
  const onlyOpenWebuis = {
    source: { name: 'Z' },
    document: ['z'],
    metadata: [{ source: 'https://z.example/', name: 'Z' }],
  };
  const reread = extractCitations({ sources: [onlyOpenWebuis, afterOpenWebuiStores(toNativeSource(live))] }).citations;
  assert.deepEqual(
    reread.map((c) => [c.index, c.title]),
    [
      [1, 'A'],
      [2, 'B'],
      [3, 'Z'],
    ],
  );
});

/** `count` web sources, each snippet `words` words long. */
const sources = (count: number, words: number) =>
  extractCitations({
    search_results: Array.from({ length: count }, (_, i) => ({
      url: `https://s${i}.example/page`,
      title: `Source ${i}`,
      snippet: `word${i} `.repeat(words),
    })),
  }).citations;

test('what an answer stores stays within the cap: snippets go first, then the last sources', () => {
  const small = sources(3, 10);
  assert.equal(sourceEventBody(small), JSON.stringify({ type: 'source', data: toNativeSource(small) }));

  const many = sources(300, 500); // every snippet near the cap of one: about 3 MB stored whole
  const trimmed = JSON.parse(sourceEventBody(many));
  assert.ok(JSON.stringify(trimmed).length <= MAX_EVENT_CHARS);
  const reread = extractCitations({ sources: [trimmed.data] }).citations;
  assert.deepEqual(
    reread.map((c) => [c.title, c.url, c.snippet]),
    many.map((c) => [c.title, c.url, null]),
  );

  const tooMany = sources(1000, 500).map((c) => ({ ...c, title: c.title.padEnd(450, '.') }));
  const kept = JSON.parse(sourceEventBody(tooMany));
  assert.ok(JSON.stringify(kept).length <= MAX_EVENT_CHARS);
  const titles = extractCitations({ sources: [kept.data] }).citations.map((c) => c.title);
  assert.ok(titles.length > 0 && titles.length < 1000);
  assert.deepEqual(
    titles,
    tooMany.slice(0, titles.length).map((c) => c.title),
  );
});

test('every source event the extension builds is one the outbox hands on: none of its own is refused', () => {
  const similar = captured.map((c) => ({ ...c, score: 0.8, scoreKind: 'similarity' as const }));
  const onThisSite = quoted.map((c) => ({ ...c, url: '/api/v1/files/1/content' }));
  for (const citations of [captured, quoted, similar, onThisSite, sources(300, 500), []]) {
    assert.ok(isSourceEventBody(sourceEventBody(citations)), JSON.stringify(citations).slice(0, 80));
  }
});
