/**
 * What the reader of last resort finds: shapes no named producer sends, written from its families
 * of fields (generic.ts), each with the markers its answer writes; and what it must not read at
 * the depths it now searches. Its precision on ordinary payloads is generic.test.ts's.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { body, linked, readGeneric } from '../../../test-support/generic.js';
import { createAccumulator } from '../accumulate.js';
import { extractCitations } from '../extract.js';

const NOTHING = { format: null, citations: [] };

test('a choice of its own field: retrieval.docs of document chunks, by name, chunk, page label and relevance', () => {
  const text = 'Paris is the capital [1]; Lyon is second [2, 1].';
  const found = readGeneric(
    body(text, {
      choice: {
        retrieval: {
          docs: [
            { doc_name: 'geo/france.pdf', chunk: 'Paris is the capital of France.', page_label: '12', relevance: 0.83 },
            { doc_name: 'cities.docx', chunk: 'Lyon is the second city.', page_label: 'iv', relevance: 0.41 },
          ],
        },
      },
    }),
  );
  assert.equal(found.field, 'choices[0].retrieval.docs');
  assert.deepEqual(
    found.citations.map((c) => [c.title, c.url, c.kind, c.snippet, c.page, c.score, c.scoreKind]),
    [
      ['france.pdf', null, 'document', 'Paris is the capital of France.', 12, 0.83, 'raw'],
      ['cities.docx', null, 'document', 'Lyon is the second city.', null, 0.41, 'raw'],
    ],
  );
  assert.deepEqual(linked(text, found.citations), [
    ['[1]', ['france.pdf']],
    ['[2, 1]', ['cities.docx', 'france.pdf']],
  ]);
});

test('a named event, {event: "sources", data}, as a chunk or relayed as the `event` Open WebUI passes on', () => {
  const items = [
    { link: 'https://a.example/one', name: 'One', q: 'first passage' },
    { link: 'https://b.example/two', name: 'Two', q: 'second passage' },
  ];
  for (const [payload, field] of [
    [{ event: 'sources', data: { items } }, 'data.items'],
    [{ event: 'retrieval_docs', data: JSON.stringify(items) }, 'data'],
    [body('x', { top: { event: { type: 'webSources', data: { items } } } }), 'event.data.items'],
  ] as const) {
    const found = readGeneric(payload);
    assert.equal(found.field, field);
    assert.deepEqual(
      found.citations.map((c) => [c.title, c.url, c.kind, c.snippet]),
      [
        ['One', 'https://a.example/one', 'web', 'first passage'],
        ['Two', 'https://b.example/two', 'web', 'second passage'],
      ],
    );
  }
});

test('nested result.context.documents numbered by their ref_id, cited as [ref_n]', () => {
  const text = 'Rates rose [ref_2] and fell [ref_1][ref_3].';
  const found = readGeneric(
    body(text, {
      top: {
        result: {
          context: {
            documents: [
              { sourceName: 'Rates', href: 'https://r.example/', summary: 'rates rose', ref_id: 'ref_2' },
              { sourceName: 'Falls', href: 'https://f.example/', summary: 'rates fell', ref_id: 'ref_1' },
            ],
          },
        },
      },
    }),
  );
  assert.equal(found.field, 'result.context.documents');
  assert.deepEqual(
    found.citations.map((c) => [c.title, c.url, c.refs]),
    [
      ['Rates', 'https://r.example/', [2]],
      ['Falls', 'https://f.example/', [1]],
    ],
  );
  // [ref_3] names a source the backend did not send: reported, linked to none.
  assert.deepEqual(linked(text, found.citations), [
    ['[ref_2]', ['Rates']],
    ['[ref_1]', ['Falls']],
    ['[ref_3]', []],
  ]);
});

const webResults = [
  { url: 'https://a.example/', title: 'A', snippet: 'a' },
  { url: 'https://b.example/', title: 'B', snippet: 'b' },
  { url: 'https://c.example/', title: 'C', snippet: 'c' },
];

test('whatever bracket the answer writes: 【n】, [^n], [citation:n], [n, m], [cite: n]', () => {
  const text = 'A 【1】 B [^2] C [citation:3] D [1, 3] E [cite: 2] F [source:1]';
  const found = readGeneric(body(text, { top: { web_results: webResults } }));
  assert.equal(found.field, 'web_results');
  assert.deepEqual(linked(text, found.citations), [
    ['【1】', ['A']],
    ['[^2]', ['B']],
    ['[citation:3]', ['C']],
    ['[1, 3]', ['A', 'C']],
    ['[cite: 2]', ['B']],
    ['[source:1]', ['A']],
  ]);
});

test('its own index: a permutation names its item; numbers from 0 count from 1 unless the answer cites a 0', () => {
  const shuffled = webResults.map((r, i) => ({ ...r, index: [3, 1, 2][i] }));
  const found = readGeneric(body('x [1]', { top: { hits: shuffled } }));
  assert.deepEqual(linked('x [1] [3]', found.citations), [
    ['[1]', ['B']],
    ['[3]', ['A']],
  ]);
  const fromZero = webResults.map((r, i) => ({ ...r, index: i }));
  const counted = readGeneric(body('A [1], C [3].', { top: { hits: fromZero } }));
  assert.deepEqual(linked('A [1], C [3].', counted.citations), [
    ['[1]', ['A']],
    ['[3]', ['C']],
  ]);
  const zero = readGeneric(body('A [0], B [1].', { top: { hits: fromZero } }));
  assert.deepEqual(linked('A [0], B [1].', zero.citations), [
    ['[0]', ['A']],
    ['[1]', ['B']],
  ]);
  // Ids that are a database's keys, not numbers of the list: by place.
  const keyed = readGeneric(body('x', { top: { hits: webResults.map((r, i) => ({ ...r, id: 48210 + i })) } }));
  assert.deepEqual(
    keyed.citations.map((c) => c.refs),
    [[1], [2], [3]],
  );
});

test('any choice, and LangChain documents with their metadata', () => {
  const documents = [
    { page_content: 'Leave is 25 days.', metadata: { source: 'hr/handbook.pdf', page: 3 } },
    {
      pageContent: 'Remote work is allowed.',
      metadata: { source: 'https://intranet.example/remote', title: 'Remote' },
    },
  ];
  const payload = {
    choices: [
      { index: 0, message: { role: 'assistant', content: 'one' } },
      { index: 1, message: { role: 'assistant', content: 'two', context_documents: documents } },
    ],
  };
  const found = readGeneric(payload);
  assert.equal(found.field, 'choices[1].message.context_documents');
  assert.deepEqual(
    found.citations.map((c) => [c.title, c.url, c.kind, c.page]),
    [
      ['handbook.pdf', null, 'document', 3],
      ['Remote', 'https://intranet.example/remote', 'web', null],
    ],
  );
});

test('any doubt at the new depths and it reads nothing', () => {
  const oneLink = { link: 'https://a.example/', title: 'A' };
  const numbered = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
  const deep = (list: unknown[]) => ({ a: { b: { c: { d: { e: { refs: list } } } } } });
  for (const payload of [
    // file objects with only names and sizes
    body('x', {
      top: {
        result: {
          uploaded: [
            { file_name: 'a.pdf', size: 10 },
            { file_name: 'b.pdf', size: 20 },
          ],
        },
      },
    }),
    // links in a tool call's arguments, as JSON text and as an object
    body('x', {
      choice: {
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'fetch_pages', arguments: JSON.stringify({ pages: webResults }) },
            },
          ],
        },
      },
    }),
    body('x', { top: { step: { function: { name: 'search', arguments: { pages: webResults } } } } }),
    // the answer parsed from structured output, what a tool returned
    body('x', { choice: { message: { role: 'assistant', content: '{}', parsed: { articles: webResults } } } }),
    body('x', { top: { tool_results: { web_search: webResults } } }),
    // two lists, at different depths
    body('x', { top: { result: { context: { documents: webResults } }, references: webResults } }),
    // deeper than it looks
    body('x', { top: deep(webResults) }),
    // Open WebUI's web search progress relayed, and an event whose name says nothing of sources
    body('x', { top: { event: { type: 'status', data: { action: 'web_search', items: [oneLink] } } } }),
    { event: 'message_end', data: { items: webResults } },
    // Open WebUI's own catalog event (webhooks, event functions), of a knowledge base, not an answer
    { event: 'knowledge.file.added', resource: 'knowledge', operation: 'file.added', data: { sources: webResults } },
    // Open WebUI's own source event, which open-webui.ts reads
    body('x', { top: { event: { type: 'source', data: { metadata: [{ source: oneLink.link, title: 'A' }] } } } }),
    // a conversation, a table's columns, named texts, an agent's messages: no link or document name
    body('x', { top: { history: [{ role: 'user', content: 'see hr/handbook.pdf', source: 'hr/handbook.pdf' }] } }),
    body('x', {
      top: {
        columns: [
          { key: 'name', title: 'Name' },
          { key: 'size', title: 'Size' },
        ],
      },
    }),
    body('x', { top: { steps: [{ name: 'Plan', content: 'First we plan.' }] } }),
    body('x', { top: { inner_messages: [{ source: 'assistant', content: 'Done.', type: 'TextMessage' }] } }),
    // a tool's message, whose content is JSON
    { choices: [{ index: 0, delta: { role: 'tool', results: webResults } }] },
    // more items than sources are ever read
    body('x', { top: { hits: numbered(1001, (i) => ({ ...oneLink, url: `https://s.example/${i}` })) } }),
    // too many fields to search whole
    body('x', { top: { ...Object.fromEntries(numbered(6000, (i) => [`k${i}`, i])), hits: [oneLink] } }),
  ]) {
    assert.deepEqual(extractCitations(payload), NOTHING, JSON.stringify(payload).slice(0, 300));
  }
});

test('streamed: sources found in one chunk are kept to the end, at the top, in the delta or beside it', () => {
  const chunk = (delta: object, extra: object = {}) => ({
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: null, ...extra }],
  });
  for (const [first, field] of [
    [{ ...chunk({ role: 'assistant', content: '' }), web_results: webResults }, 'web_results'],
    [chunk({ role: 'assistant', content: '', references: webResults }), 'choices[0].message.references'],
    [chunk({ role: 'assistant', content: '' }, { retrieval: { docs: webResults } }), 'choices[0].retrieval.docs'],
  ] as const) {
    const stream = createAccumulator();
    const rest = [chunk({ content: 'A [1]' }), chunk({ content: ' and C [3].' }), chunk({}, { finish_reason: 'stop' })];
    for (const part of [first, ...rest]) stream.add(part);
    const found = stream.result();
    assert.equal(found.field, field);
    assert.deepEqual(linked(stream.text(), found.citations), [
      ['[1]', ['A']],
      ['[3]', ['C']],
    ]);
  }
});
