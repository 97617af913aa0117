/**
 * Totality: for any JSON value and any string, the core returns without throwing, every link
 * it returns is http(s) or relative, and every span lies inside the text. FC_RUNS sets the
 * number of cases per property (10,000 by default).
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { createAccumulator } from './accumulate.js';
import { extractCitations } from './extract.js';
import { linkMarkers } from './markers.js';
import type { ExtractResult } from './model.js';
import { safeUrl } from './urls.js';

const RUNS = Number(process.env.FC_RUNS ?? 10_000);

// Values shaped like the real formats, so that the parsers go deep, not just the guards.
const KEYS = ['extra', 'choices', 'message', 'delta', 'content', 'context', 'citations', 'all_retrieved_documents',
  'annotations', 'url_citation', 'type', 'url', 'title', 'start_index', 'end_index', 'search_sources',
  'search_results', 'sources', 'source', 'document', 'metadata', 'distances', 'quote', 'quote_start', 'quote_end',
  'section_id', 'page', 'page_start', 'relevance_score', 'file_url', 'chunk_url', 'output', 'owc', 'refs', 'anchors'];
const scalar = fc.oneof(fc.string(), fc.integer({ min: -5, max: 2 ** 53 + 10 }), fc.double(), fc.boolean(), fc.constant(null),
  fc.constantFrom('url_citation', 'file_citation', 'web', 'x_post', 'source', '{}', 'https://e.example/a', 'javascript:alert(1)', '//evil.example', '[1] [doc2] [[3]](https://e.example/a)'));
const shaped: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 6 }),
    tie('value').map((v) => JSON.stringify(v))), // JSON inside strings, as OpenRAG sends it
})).value;
const anyPayload = fc.oneof(fc.jsonValue(), shaped, fc.string());

function assertWellFormed(result: ExtractResult): void {
  result.citations.forEach((citation, i) => {
    assert.equal(citation.index, i + 1);
    assert.ok(citation.url === null || /^https?:\/\//.test(citation.url) || (citation.url.startsWith('/') && !citation.url.startsWith('//')), citation.url ?? '');
    assert.ok(typeof citation.title === 'string' && citation.title.length > 0);
  });
}

test('extractCitations: any payload, no throw, safe links, numbered 1..n', () => {
  fc.assert(fc.property(anyPayload, (payload) => assertWellFormed(extractCitations(payload))), { numRuns: RUNS });
});

test('createAccumulator: any sequence of chunks, no throw', () => {
  fc.assert(fc.property(fc.array(anyPayload, { maxLength: 6 }), (chunks) => {
    const accumulator = createAccumulator();
    chunks.forEach((chunk) => accumulator.add(chunk));
    assertWellFormed(accumulator.result());
    assert.equal(typeof accumulator.text(), 'string');
  }), { numRuns: RUNS });
});

test('linkMarkers: any text, spans inside it, sorted, citing known sources', () => {
  const markerText = fc.array(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('[1]', '[2, 3]', '[1-3]', '[doc2]', ' [[1]](https://e.example/a)', '【2】', '[^1]', '\n[Sources: 1, 2]', '\n\n## Sources\n[grok2api-sources]: #\n', '`[1]`', '😀')), { maxLength: 12 }).map((parts) => parts.join(''));
  fc.assert(fc.property(markerText, shaped, (text, payload) => {
    const known3 = extractCitations({ search_results: [{ url: 'https://e.example/a' }, { url: 'https://e.example/b' }, {}] });
    const all = [...known3.citations, ...extractCitations(payload).citations];
    const known = new Set(all.map((c) => c.index));
    let previous = 0;
    for (const span of linkMarkers(text, all)) {
      assert.ok(span.start >= previous && span.start <= span.end && span.end <= text.length);
      assert.ok(span.indices.every((i) => known.has(i)));
      previous = span.start;
    }
  }), { numRuns: RUNS });
});

test('safeUrl: anything in, http(s) or relative out', () => {
  fc.assert(fc.property(fc.oneof(fc.webUrl(), fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('javascript:x', 'JAVASCRIPT:x', ' data:x', 'vbscript:x')), (raw) => {
    const url = safeUrl(raw);
    assert.ok(url === null || /^https?:\/\//.test(url) || (url.startsWith('/') && !url.startsWith('//')));
  }), { numRuns: RUNS });
});
