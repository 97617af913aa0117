import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { createAccumulator } from '../accumulate.js';
import { extractCitations } from '../extract.js';
import { linkMarkers } from '../markers.js';

interface Corpus {
  groups: Array<{ name: string; from: string; payloads: unknown[] }>;
}
// The hand-built half and the half scripts/ordinary_corpus.py writes.
const groups = ['ordinary-payloads.json', 'ordinary-payloads-generated.json'].flatMap(
  (name) => (JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as Corpus).groups,
);
const payloads = groups.flatMap((group) => group.payloads.map((payload) => ({ group: group.name, payload })));

test('ordinary payloads (tool calls, logprobs, images, reasoning, events, near misses) give no citations', () => {
  assert.ok(payloads.length >= 1400, `${payloads.length} payloads`);
  for (const { group, payload } of payloads) {
    const found = extractCitations(payload);
    assert.deepEqual(found, { format: null, citations: [] }, `${group}: ${JSON.stringify(payload).slice(0, 200)}`);
    // Also as what Open WebUI wraps: a status event's data on its own, and as a stream chunk.
    if (payload && typeof payload === 'object' && 'data' in payload)
      assert.equal(extractCitations((payload as { data: unknown }).data).citations.length, 0, group);
  }
  const stream = createAccumulator();
  payloads.forEach(({ payload }) => stream.add(payload));
  assert.equal(stream.result().citations.length, 0);
});

const chat = (message: object, top: object = {}) => ({
  choices: [{ index: 0, message: { role: 'assistant', content: 'A [1] and B [2].', ...message } }],
  ...top,
});
const sources = [
  { url: 'https://a.example/x', title: 'A', snippet: 'a' },
  { document_name: 'b.pdf', content: 'b text' },
];

test("an unknown backend's list of sources is read, wherever it is, and its field named", () => {
  for (const [payload, field] of [
    [chat({ references: sources }), 'choices[0].message.references'],
    [chat({}, { retrieved: sources }), 'retrieved'],
    [chat({}, { rag: JSON.stringify({ sources }) }), 'rag.sources'],
  ] as const) {
    const found = extractCitations(payload);
    assert.equal(found.format, 'generic');
    assert.equal(found.field, field);
    assert.deepEqual(
      found.citations.map((c) => [c.title, c.url, c.kind]),
      [
        ['A', 'https://a.example/x', 'web'],
        ['b.pdf', null, 'document'],
      ],
    );
    const text = 'A [1] and B [2].';
    assert.deepEqual(
      linkMarkers(text, found.citations).map((s) => s.indices),
      [[1], [2]],
    );
  }
});

test('any doubt and it reads nothing: one item unlike a source, no text beside the address, two lists', () => {
  for (const payload of [
    chat({ references: [...sources, { id: 7 }] }),
    chat({ references: [{ url: 'https://a.example/x' }] }),
    chat({ references: [{ url: 'javascript:alert(1)', title: 'x' }] }),
    chat({ references: sources }, { retrieved: sources }),
  ]) {
    assert.deepEqual(extractCitations(payload), { format: null, citations: [] }, JSON.stringify(payload));
  }
});
