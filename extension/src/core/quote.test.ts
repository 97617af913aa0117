import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { extractCitations } from './extract.js';
import { MAX_SNIPPET } from './limits.js';
import { verifyQuote } from './quote.js';

const SOURCE = '§ 4.2 Les relevés sont conservés\n  pendant dix ans. Au-delà, détruits.';

test('a quote with right offsets in any unit is verbatim, with UTF-16 offsets', () => {
  const quote = 'Les relevés';
  const start = SOURCE.indexOf(quote);
  const utf8Start = Buffer.byteLength(SOURCE.slice(0, start));
  const verified = verifyQuote(quote, utf8Start, utf8Start + Buffer.byteLength(quote), SOURCE);
  assert.deepEqual(verified, { text: quote, start, end: start + quote.length, verbatim: true });
});

test('wrong or -1 offsets are recomputed when the quote is found', () => {
  const start = SOURCE.indexOf('pendant dix ans');
  assert.deepEqual(verifyQuote('pendant dix ans', -1, -1, SOURCE), {
    text: 'pendant dix ans',
    start,
    end: start + 15,
    verbatim: true,
  });
  assert.equal(verifyQuote('pendant dix ans', 0, 3, SOURCE).start, start);
});

test('a quote that differs only in white space is found where it stands', () => {
  const verified = verifyQuote('conservés pendant   dix', null, null, SOURCE);
  assert.equal(verified.verbatim, true);
  assert.equal(SOURCE.slice(verified.start!, verified.end!), 'conservés\n  pendant dix');
});

test('a paraphrase is not verbatim; without source text nothing can be said', () => {
  assert.deepEqual(verifyQuote('kept for ten years', -1, -1, SOURCE), {
    text: 'kept for ten years',
    start: null,
    end: null,
    verbatim: false,
  });
  assert.equal(verifyQuote('anything', 0, 8, null).verbatim, null);
  assert.equal(verifyQuote('a.*b (regex)', null, null, 'a.*b   (regex)').verbatim, true);
});

/** What the search must agree with: the quote's words, in order, separated by any white space. */
function regexOracle(text: string, quote: string): [number, number] | null {
  const words = quote.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const match = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+')).exec(text);
  return match ? [match.index, match.index + match[0].length] : null;
}

test('white space is loosened exactly as a pattern of the words would, without building one', () => {
  const spaced = fc.string({
    unit: fc.constantFrom('a', 'b', 'é', '😀', ' ', '\n', '\u00a0', '\u2028', '\t'),
    maxLength: 40,
  });
  fc.assert(
    fc.property(spaced, spaced, (text, quote) => {
      const verified = verifyQuote(quote, null, null, text);
      const expected =
        quote === ''
          ? null
          : text.includes(quote)
            ? [text.indexOf(quote), text.indexOf(quote) + quote.length]
            : regexOracle(text, quote);
      assert.deepEqual(verified.start === null ? null : [verified.start, verified.end], expected);
    }),
    { numRuns: 2000 },
  );
});

test('a 6,000-word paraphrase is told apart, and its citation kept', () => {
  const content = Array.from({ length: 6000 }, (_, i) => `word${i % 97}`).join(' ');
  const quote = `${content} and then some`; // 6,003 words, a pattern of which the old search built and failed on
  const body = {
    choices: [{ message: { content: 'Answer [1].' } }],
    citations: [{ section_id: '4.2', title: 'Policy', quote, quote_start: -1, quote_end: -1, content }],
  };
  const { citations } = extractCitations(body);
  assert.equal(citations.length, 1);
  assert.equal(citations[0]!.quote!.verbatim, false);
});

test('quotes, snippets and titles up to 1 MB: verified linearly, each citation on its own', () => {
  const long = fc.oneof(
    fc.string({ maxLength: 50 }),
    fc.integer({ min: 1, max: 1 << 20 }).map((n) => 'ab '.repeat(Math.ceil(n / 3)).slice(0, n)),
  );
  const citation = fc.record({
    section_id: fc.string({ maxLength: 8 }),
    title: long,
    quote: long,
    content: long,
    quote_start: fc.integer({ min: -1, max: 1 << 20 }),
    quote_end: fc.integer({ min: -1, max: 1 << 20 }),
  });
  fc.assert(
    fc.property(fc.array(citation, { minLength: 1, maxLength: 3 }), (citations) => {
      const found = extractCitations({ choices: [{ message: { content: 'x [1]' } }], citations });
      assert.ok(found.citations.length >= 1);
      // each quote checked against its text; one too long to keep whole is cut, and no longer says (limits.ts)
      for (const c of found.citations) {
        if (!c.quote || !c.snippet) continue;
        if (c.quote.verbatim === null) assert.ok(c.quote.start === null && c.quote.text.length >= MAX_SNIPPET - 1);
        else assert.equal(typeof c.quote.verbatim, 'boolean');
      }
    }),
    { numRuns: 30 },
  );
});
