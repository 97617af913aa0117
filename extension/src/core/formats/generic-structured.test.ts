/**
 * The reader of last resort on sources carried in JSON fields, in the shapes real backends no
 * format names send (corpus/unnamed/build: PrivateGPT, GPT4All, Cloudflare AI Search, …): a
 * choice's own `sources`, an item's title and link in a nested object, lists nested in lists,
 * numbering from 0, from 1 or by the items' own numbers. Made-up content in the backends' shapes.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { body, linked, readGeneric } from '../../../test-support/generic.js';
import { createAccumulator } from '../accumulate.js';
import { extractCitations } from '../extract.js';
import type { Citation } from '../model.js';

const NOTHING = { format: null, citations: [] };

const webResults = [
  { title: 'A', url: 'https://a.example/', snippet: 'a' },
  { title: 'B', url: 'https://b.example/', snippet: 'b' },
];

const shown = (citations: Citation[]) => citations.map((c) => [c.title, c.url, c.snippet, c.page, c.score]);

/** PrivateGPT's chunk: the file's name and page in `document.doc_metadata`. */
const chunk = (file: string, text: string, score: number, page?: string) => ({
  object: 'context.chunk',
  score,
  document: {
    object: 'ingest.document',
    doc_id: 'c202d5e6',
    doc_metadata: { ...(page ? { page_label: page } : {}), file_name: file, doc_id: 'c202d5e6', window: text },
  },
  text,
  previous_texts: null,
  next_texts: null,
});

test("a choice's own sources, each naming its file in a nested document's metadata (PrivateGPT)", () => {
  const sources = [
    chunk('Sales Report Q3.pdf', 'Outbound sales increased 20%.', 0.81, '2'),
    chunk('team-notes.txt', 'Inbound flat.', 0.6),
  ];
  const found = readGeneric(body('Outbound grew.', { choice: { delta: null, sources } }));
  assert.equal(found.field, 'choices[0].sources');
  assert.deepEqual(shown(found.citations), [
    ['Sales Report Q3.pdf', null, 'Outbound sales increased 20%.', 2, 0.81],
    ['team-notes.txt', null, 'Inbound flat.', null, 0.6],
  ]);
  // Streamed: every chunk repeats the list, the last one sends null.
  const stream = createAccumulator();
  const part = (content: string, list: unknown) => ({
    object: 'completion.chunk',
    choices: [{ index: 0, delta: { content }, message: null, sources: list, finish_reason: null }],
  });
  for (const piece of [part('Outbound ', sources), part('grew.', sources), part('', null)]) stream.add(piece);
  assert.equal(stream.result().field, 'choices[0].sources');
  assert.equal(stream.result().citations.length, 2);
});

test("a choice's references with a file, a title often empty and -1 for no page (GPT4All)", () => {
  const references = [
    {
      author: '',
      date: '2024, March 05',
      file: 'lease.pdf',
      from: -1,
      page: 4,
      text: 'Notice: three months.',
      title: 'Lease Agreement',
      to: -1,
    },
    {
      author: 'J. Meyer',
      date: '2025, January 17',
      file: 'house-rules.md',
      from: 12,
      page: -1,
      text: 'Quiet hours.',
      title: '',
      to: 18,
    },
  ];
  const found = readGeneric(body('Three months.', { choice: { logprobs: null, references } }));
  assert.equal(found.field, 'choices[0].references');
  assert.deepEqual(shown(found.citations), [
    ['Lease Agreement', null, 'Notice: three months.', 4, null],
    ['house-rules.md', null, 'Quiet hours.', null, null],
  ]);
});

test("chunks beside the choices whose document, a path or an address, is a nested item's key (Cloudflare AI Search)", () => {
  const chunks = [
    {
      id: 'chunk-1',
      type: 'text',
      score: 0.91,
      text: 'Free: 100,000 a day.',
      item: { key: 'docs/pricing.md', timestamp: 1795000000000, metadata: { folder: 'docs' } },
      scoring_details: { vector_score: 0.91 },
    },
    {
      id: 'chunk-2',
      type: 'text',
      score: 0.62,
      text: 'Limits reset daily.',
      item: { key: 'https://developers.example.com/limits/', timestamp: 1794900000000 },
    },
  ];
  const found = readGeneric(body('Free gets 100,000.', { top: { chunks } }));
  assert.equal(found.field, 'chunks');
  assert.deepEqual(
    found.citations.map((c) => [c.url, c.snippet, c.score, c.kind]),
    [
      [null, 'Free: 100,000 a day.', 0.91, 'document'],
      ['https://developers.example.com/limits/', 'Limits reset daily.', 0.62, 'web'],
    ],
  );
  assert.equal(found.citations[0]!.title, 'pricing.md');
  // Streamed, the chunks come first as an event of their own whose data is the list.
  const stream = createAccumulator();
  stream.add(`event: chunks\ndata: ${JSON.stringify(chunks)}\n\n`);
  stream.add(
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'Free.' } }] })}\n\n`,
  );
  assert.equal(stream.result().field, 'chunks');
  assert.equal(stream.result().citations.length, 2);
});

test("an item's title and link in a nested object of the item: source, document, web", () => {
  const text = 'A [1], B [2].';
  for (const holder of ['source', 'document', 'web']) {
    const results = [
      { [holder]: { title: 'Alpha', url: 'https://a.example/' }, snippet: 'alpha text', score: 0.9 },
      { [holder]: { title: 'Beta', url: 'https://b.example/' }, snippet: 'beta text', score: 0.8 },
    ];
    const found = readGeneric(body(text, { top: { results } }));
    assert.deepEqual(shown(found.citations), [
      ['Alpha', 'https://a.example/', 'alpha text', null, 0.9],
      ['Beta', 'https://b.example/', 'beta text', null, 0.8],
    ]);
    assert.deepEqual(linked(text, found.citations), [
      ['[1]', ['Alpha']],
      ['[2]', ['Beta']],
    ]);
  }
});

test('lists nested in lists: each result carrying its own citations, numbered across them', () => {
  const text = 'Rates rose [1][3]; B fell [2].';
  const segments = [
    { text: 'Rates rose', citations: [{ title: 'R1', url: 'https://r1.example/' }] },
    {
      text: 'B fell',
      citations: [
        { title: 'B1', url: 'https://b1.example/' },
        { title: 'R2', url: 'https://r2.example/' },
      ],
    },
  ];
  const found = readGeneric(body(text, { choice: { message: { role: 'assistant', content: text, segments } } }));
  assert.equal(found.field, 'choices[0].message.segments[].citations');
  assert.deepEqual(
    found.citations.map((c) => c.title),
    ['R1', 'B1', 'R2'],
  );
  assert.deepEqual(linked(text, found.citations), [
    ['[1]', ['R1']],
    ['[3]', ['R2']],
    ['[2]', ['B1']],
  ]);
  // Sources whose items hold lists of their own (their authors, with links) are read whole.
  const papers = [
    { title: 'P1', url: 'https://p1.example/', authors: [{ name: 'Ann', url: 'https://ann.example/' }] },
    { title: 'P2', url: 'https://p2.example/', authors: [{ name: 'Bob', url: 'https://bob.example/' }] },
  ];
  const whole = readGeneric(body('P [1]', { top: { papers } }));
  assert.equal(whole.field, 'papers');
  assert.deepEqual(
    whole.citations.map((c) => c.title),
    ['P1', 'P2'],
  );
  // Search pages, each with its own results (one search per query).
  const pages = [
    { query: 'a', results: [{ title: 'A', url: 'https://a.example/', snippet: 'a' }] },
    { query: 'b', results: [{ title: 'B', url: 'https://b.example/', snippet: 'b' }] },
  ];
  const searched = readGeneric(body('A [1] B [2]', { top: { searches: pages } }));
  assert.equal(searched.field, 'searches[].results');
  assert.deepEqual(linked('A [1] B [2]', searched.citations), [
    ['[1]', ['A']],
    ['[2]', ['B']],
  ]);
});

test('numbered by place from 0 when the answer cites a 0, from 1 otherwise', () => {
  const hits = webResults;
  assert.deepEqual(linked('A [0], B [1].', readGeneric(body('A [0], B [1].', { top: { hits } })).citations), [
    ['[0]', ['A']],
    ['[1]', ['B']],
  ]);
  assert.deepEqual(linked('A [1], B [2].', readGeneric(body('A [1], B [2].', { top: { hits } })).citations), [
    ['[1]', ['A']],
    ['[2]', ['B']],
  ]);
});

test('any doubt in the new places and it reads nothing', () => {
  for (const payload of [
    // Open WebUI's own sources on a choice: {source, document[], metadata[]}, read by open-webui.ts or nobody
    body('x', {
      choice: {
        sources: [
          { source: { name: 'A', url: 'https://a.example/' }, document: ['text'], metadata: [{ source: 'a.pdf' }] },
        ],
      },
    }),
    // people with a profile link, posts by them: a nested object that is not a document
    body('x', { top: { comments: [{ user: { name: 'ann', url: 'https://u.example/ann' }, text: 'hi' }] } }),
    // nested lists of which one item is unlike a source
    body('x', { top: { searches: [{ results: webResults }, { results: [{ id: 7 }] }] } }),
    // nested lists under different names: which one holds the sources is a guess
    body('x', { top: { searches: [{ results: webResults }, { hits: webResults }] } }),
    // a file name without any text or title
    body('x', { choice: { references: [{ file: 'a.pdf' }] } }),
    // two lists, the longer without one of the other's documents
    body('x', {
      top: {
        cited: [webResults[0], { title: 'C', url: 'https://c.example/', snippet: 'c' }],
        retrieved: [...webResults, { title: 'D', url: 'https://d.example/', snippet: 'd' }],
      },
    }),
    // ids and texts, the answer linking to none of them but to a web page
    body('[A](https://a.example/)', { top: { chunks: [{ file_id: 'f-1', text: 'a' }] } }),
  ]) {
    assert.deepEqual(extractCitations(payload), NOTHING, JSON.stringify(payload).slice(0, 300));
  }
  // Streamed, a list sent as an event whose name says nothing of sources is not read.
  const stream = createAccumulator();
  stream.add(`event: progress\ndata: ${JSON.stringify(webResults)}\n\n`);
  stream.add(`data: ${JSON.stringify(body('x'))}\n\n`);
  assert.deepEqual(stream.result(), NOTHING);
});

test('documents named only by an id, which the answer links to by name: [Handbook.pdf](<id>) (Writer)', () => {
  const handbook = '7b1e4c2a-90d3-4f6e-b8a5-1c2d3e4f5a6b';
  const faq = 'e2a9f0c4-3b5d-4c7e-8f91-0a1b2c3d4e5f';
  const text = `25 days [Handbook.pdf](${handbook}), 5 carry over [Leave-FAQ.docx](${faq}).`;
  const graphData = {
    status: 'finished',
    // the older list: the cited snippets again
    sources: [
      { file_id: handbook, snippet: '25 days of paid leave.' },
      { file_id: faq, snippet: 'Five days carry over.' },
    ],
    references: {
      files: [
        { fileId: handbook, text: '25 days of paid leave.', score: 0.93, page: 14, cite: handbook },
        { fileId: faq, text: 'Five days carry over.', score: 0.88, page: 2, cite: faq },
        { fileId: '0c9d8e7f-6a5b', text: 'Part-time staff accrue pro rata.', score: 0.71, page: 15, cite: null },
      ],
    },
  };
  const found = readGeneric(
    body(text, { choice: { message: { role: 'assistant', content: text, graph_data: graphData } } }),
  );
  // Two lists of the same documents: the one that has them all.
  assert.equal(found.field, 'choices[0].message.graph_data.references.files');
  assert.deepEqual(shown(found.citations), [
    ['Handbook.pdf', null, '25 days of paid leave.', 14, 0.93],
    ['Leave-FAQ.docx', null, 'Five days carry over.', 2, 0.88],
    [found.citations[2]!.title, null, 'Part-time staff accrue pro rata.', 15, 0.71], // not cited: untitled
  ]);
  // Without the answer naming any of them, ids and texts are not sources.
  assert.deepEqual(
    extractCitations(
      body('25 days.', { choice: { message: { role: 'assistant', content: '25 days.', graph_data: graphData } } }),
    ),
    NOTHING,
  );
});
