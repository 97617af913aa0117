import assert from 'node:assert/strict';
import { test } from 'node:test';

import { extractCitations } from './extract.js';
import { MAX_CITATIONS, MAX_SNIPPET } from './limits.js';

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
