import assert from 'node:assert/strict';
import { test } from 'node:test';

import { extractCitations } from '../core/index.js';
import { hasStoredCitations, toNativeSource } from './shape.js';

const captured = extractCitations({
  extra: JSON.stringify({ sources: [
    { source_type: 'document', file_url: 'https://rag.example/static/r.pdf', chunk_url: 'https://rag.example/extract/458812345678901234', filename: 'r.pdf', page: 3, relevance_score: 4.8 },
    { source_type: 'web', url: 'https://w.example/a', title: 'Web page', snippet: 'A snippet.' },
  ] }),
}).citations;
const quoted = extractCitations({ citations: [{ section_id: 's', title: 'S', page_start: 2, page_end: 4, quote: 'kept ten years', quote_start: -1, quote_end: -1, content: 'Records are kept ten years.' }] }).citations;

test('stored citations read back as they were captured, without raw data', () => {
  for (const citations of [captured, quoted]) {
    const stored = toNativeSource(citations);
    const reread = extractCitations({ sources: [stored] }).citations;
    assert.deepEqual(reread, citations.map((c) => ({ ...c, format: 'open-webui' })));
    assert.ok(hasStoredCitations([stored]));
  }
  assert.equal(hasStoredCitations([{ source: { name: 'native' }, document: ['x'], metadata: [{ source: 'x' }] }]), false);
});

test('Open WebUI\'s own view of the stored event reads sensibly', () => {
  const stored = toNativeSource(captured);
  assert.deepEqual(stored.metadata.map((m) => [m.source, m.name, m.page]), [
    ['https://rag.example/extract/458812345678901234', 'r.pdf', 2], // Open WebUI shows page + 1
    ['https://w.example/a', 'Web page', undefined],
  ]);
  assert.deepEqual(stored.document, ['r.pdf', 'A snippet.']);
  assert.equal(stored.distances, undefined); // a reranker score is never shown as a percentage
});
