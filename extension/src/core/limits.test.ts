import assert from 'node:assert/strict';
import { test } from 'node:test';

import { extractCitations } from './extract.js';
import { MAX_ANCHORS, MAX_CITATIONS, MAX_FIELD, MAX_REFS, MAX_SNIPPET } from './limits.js';

test("10,000 sources: the producer's first ones are read, the others counted", () => {
  const sources = Array.from({ length: 10_000 }, (_, i) => ({
    source_type: 'web',
    url: `https://s.example/${i + 1}`,
    title: `Source ${i + 1}`,
  }));
  const result = extractCitations({ extra: JSON.stringify({ sources }) });
  assert.equal(result.citations.length, MAX_CITATIONS);
  assert.equal(result.citations.at(-1)!.title, `Source ${MAX_CITATIONS}`);
  assert.equal(result.omitted, 10_000 - MAX_CITATIONS);
  assert.equal(extractCitations({ extra: JSON.stringify({ sources: sources.slice(0, 3) }) }).omitted, undefined);
});

test('a megabyte of snippet is cut to its start, or around its verbatim quote', () => {
  const megabyte = 'x'.repeat(1 << 20);
  const [plain] = extractCitations({ search_results: [{ title: 'T', snippet: megabyte }] }).citations;
  assert.equal(plain!.snippet!.length, MAX_SNIPPET);
  const quote = 'the sentence that supports the answer';
  const [quoted] = extractCitations({
    citations: [
      { section_id: 's', title: 'S', quote, quote_start: -1, quote_end: -1, content: `${megabyte}${quote}.` },
    ],
  }).citations;
  const { start, end, verbatim } = quoted!.quote!;
  assert.ok(verbatim && quoted!.snippet!.length === MAX_SNIPPET);
  assert.equal(quoted!.snippet!.slice(start!, end!), quote);
});

test('a cut never splits a surrogate pair (Open WebUI would drop the lone half when storing)', () => {
  const [citation] = extractCitations({
    search_results: [{ title: 'T', snippet: `${'x'.repeat(MAX_SNIPPET - 1)}😀${'y'.repeat(10)}` }],
  }).citations;
  assert.equal(citation!.snippet, 'x'.repeat(MAX_SNIPPET - 1));
});

// A lone half of a surrogate pair: what a cut must never leave (Open WebUI drops it when storing).
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

test('five sources of 500 KB title, content, quote and id store a bounded size', () => {
  const big = (c: string) => `${c.repeat(500_000)}`;
  const citations = Array.from({ length: 5 }, (_, i) => {
    const content = big(String(i));
    return { section_id: big(`s${i}`).slice(0, 500_000), title: big('T'), quote: content, content };
  });
  const result = extractCitations({ citations });
  assert.equal(result.citations.length, 5);
  const size = JSON.stringify(result.citations).length;
  // Per source: a snippet and a quote of at most MAX_SNIPPET, four short fields, a little JSON.
  assert.ok(size <= 5 * (2 * MAX_SNIPPET + 4 * MAX_FIELD + 1000), `${size} characters of JSON`);
});

test('3000 annotations on one URL: anchors capped, and merging keeps the cap', () => {
  const annotations = Array.from({ length: 3000 }, (_, i) => ({
    type: 'url_citation',
    url_citation: { url: 'https://a.example/', title: 'A', start_index: i, end_index: i + 1 },
  }));
  const { citations } = extractCitations({
    choices: [{ index: 0, message: { role: 'assistant', content: 'x', annotations } }],
  });
  assert.equal(citations.length, 1);
  assert.equal(citations[0]!.anchors.length, MAX_ANCHORS);
  assert.deepEqual(citations[0]!.anchors.at(-1), { start: MAX_ANCHORS - 1, end: MAX_ANCHORS, unit: 'codePoints' }); // the first ones
  // Stored citations of one id, each at the cap, merged: still the cap, anchors and refs alike.
  const stored = (n: number) => ({
    id: 'same',
    title: 'S',
    refs: Array.from({ length: MAX_REFS }, (_, i) => n * MAX_REFS + i + 1),
    anchors: Array.from({ length: MAX_ANCHORS }, (_, i) => ({
      start: n * 100 + i,
      end: n * 100 + i + 1,
      unit: 'utf16',
    })),
  });
  const merged = extractCitations({
    sources: [
      {
        source: { id: 'same', name: 'S' },
        document: ['a', 'b', 'c'],
        metadata: [0, 1, 2].map((n) => ({ source: 'same', owc: stored(n) })),
      },
    ],
  }).citations;
  assert.equal(merged.length, 1);
  assert.equal(merged[0]!.anchors.length, MAX_ANCHORS);
  assert.equal(merged[0]!.refs.length, MAX_REFS);
});

test('refs of one source are capped: 1000 sections of one id', () => {
  const citations = Array.from({ length: 1000 }, (_, i) => ({ section_id: 'one', title: 'T', content: `c${i}` }));
  const [citation] = extractCitations({ citations }).citations;
  assert.equal(citation!.refs.length, MAX_REFS);
  assert.deepEqual(citation!.refs.slice(0, 3), [1, 2, 3]);
});

test('a verbatim quote longer than MAX_SNIPPET is cut and loses its offsets', () => {
  const quote = `${'q'.repeat(MAX_SNIPPET * 2)}😀end`;
  const content = `before ${quote} after`;
  const [citation] = extractCitations({
    citations: [{ section_id: 's', title: 'S', quote, quote_start: -1, quote_end: -1, content }],
  }).citations;
  assert.ok(citation!.snippet!.length <= MAX_SNIPPET, `snippet of ${citation!.snippet!.length}`);
  assert.ok(citation!.quote!.text.length <= MAX_SNIPPET, `quote of ${citation!.quote!.text.length}`);
  assert.deepEqual(
    { start: citation!.quote!.start, end: citation!.quote!.end, verbatim: citation!.quote!.verbatim },
    { start: null, end: null, verbatim: null }, // not checked against the snippet as kept (limits.ts)
  );
  assert.ok(quote.startsWith(citation!.quote!.text) && citation!.snippet!.startsWith('q')); // the quote's start
  // Without a source text to check it against, a long quote is cut all the same.
  const [alone] = extractCitations({ citations: [{ section_id: 's', title: 'S', quote }] }).citations;
  assert.equal(alone!.quote!.text.length, MAX_SNIPPET);
  assert.equal(alone!.quote!.verbatim, null);
  // A long quote not found in its source stays "not verbatim".
  const [paraphrase] = extractCitations({
    citations: [{ section_id: 's', title: 'S', quote, content: 'something else' }],
  }).citations;
  assert.equal(paraphrase!.quote!.verbatim, false);
  // A quote a surrogate pair straddles the cut of loses the pair whole.
  const [pair] = extractCitations({
    citations: [{ section_id: 's', title: 'S', quote: `${'x'.repeat(MAX_SNIPPET - 1)}😀y` }],
  }).citations;
  assert.equal(pair!.quote!.text, 'x'.repeat(MAX_SNIPPET - 1));
});

test('long title, id, file and date are cut on a code-point boundary', () => {
  const long = (c: string) => `${'a'.repeat(MAX_FIELD - 1)}${c.repeat(2000)}`;
  const [web] = extractCitations({
    search_results: [{ title: long('😀'), url: `https://a.example/${long('😀')}`, date: long('😀'), snippet: 's' }],
  }).citations;
  for (const field of ['title', 'id', 'date'] as const) {
    const value = web![field]!;
    assert.ok(value.length <= MAX_FIELD, `${field} of ${value.length}`);
    assert.ok(!LONE.test(value), `${field} ends in a lone surrogate`);
  }
  assert.equal(web!.title, 'a'.repeat(MAX_FIELD - 1)); // the pair straddling the cut goes whole
  // A file is the title's fallback: its name is at its end, so a long path keeps its end.
  const file = (name: string) =>
    extractCitations({
      sources: [{ source: { id: 'f' }, document: ['d'], metadata: [{ source: 'f', file_name: name }] }],
    }).citations[0]!.title;
  assert.equal(file(`${'dir/'.repeat(5000)}report.pdf`), 'report.pdf');
  assert.ok(file(`dir/${'n'.repeat(100_000)}.pdf`).length <= MAX_FIELD);
});

test('two long ids sharing their first characters stay two; one long id met twice is one', () => {
  const url = (tail: string) => `https://a.example/${'p'.repeat(2 * MAX_FIELD)}${tail}`;
  const { citations } = extractCitations({
    search_results: [
      { title: 'A', url: url('A') },
      { title: 'B', url: url('B') },
      { title: 'A again', url: url('A') },
    ],
  });
  assert.deepEqual(
    citations.map((c) => c.title),
    ['A', 'B'],
  );
  assert.notEqual(citations[0]!.id, citations[1]!.id);
  assert.ok(citations.every((c) => c.id.length <= MAX_FIELD));
  // A cut id read back from the stored citation is not cut again: the source keeps its identity.
  const stored = extractCitations({
    sources: [{ source: { id: 'x' }, document: ['d'], metadata: [{ source: 'x', owc: citations[0] }] }],
  }).citations[0]!;
  assert.equal(stored.id, citations[0]!.id);
});
