import assert from 'node:assert/strict';
import { test } from 'node:test';

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
  assert.deepEqual(verifyQuote('pendant dix ans', -1, -1, SOURCE), { text: 'pendant dix ans', start, end: start + 15, verbatim: true });
  assert.equal(verifyQuote('pendant dix ans', 0, 3, SOURCE).start, start);
});

test('a quote that differs only in white space is found where it stands', () => {
  const verified = verifyQuote('conservés pendant   dix', null, null, SOURCE);
  assert.equal(verified.verbatim, true);
  assert.equal(SOURCE.slice(verified.start!, verified.end!), 'conservés\n  pendant dix');
});

test('a paraphrase is not verbatim; without source text nothing can be said', () => {
  assert.deepEqual(verifyQuote('kept for ten years', -1, -1, SOURCE), { text: 'kept for ten years', start: null, end: null, verbatim: false });
  assert.equal(verifyQuote('anything', 0, 8, null).verbatim, null);
  assert.equal(verifyQuote('a.*b (regex)', null, null, 'a.*b   (regex)').verbatim, true);
});
