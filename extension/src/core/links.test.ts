import assert from 'node:assert/strict';
import { test } from 'node:test';

import { sourceLink, textDirective } from './links.js';

const web = { url: 'https://example.com/article', page: null, quote: null, snippet: null };

test('a web source with a quote opens at it: a text fragment, each part encoded', () => {
  const link = sourceLink({
    ...web,
    quote: { text: 'Spain beat England 2-1, in Berlin & won', start: null, end: null, verbatim: null },
  });
  assert.equal(link, 'https://example.com/article#:~:text=Spain%20beat%20England%202%2D1%2C%20in%20Berlin%20%26%20won');
  // The directive decodes back to the passage: nothing of it is taken for the directive's syntax.
  const directive = link!.split('#:~:text=')[1]!;
  assert.deepEqual(directive.split(',').map(decodeURIComponent), ['Spain beat England 2-1, in Berlin & won']);
  assert.equal(directive.includes('-'), false);
});

test('without a quote, the snippet; without either, the page as it is', () => {
  assert.equal(
    sourceLink({ ...web, snippet: '…Most of them are red dwarfs…' }),
    'https://example.com/article#:~:text=Most%20of%20them%20are%20red%20dwarfs',
  );
  assert.equal(sourceLink(web), 'https://example.com/article');
  assert.equal(sourceLink({ ...web, snippet: ' … ' }), 'https://example.com/article');
  assert.equal(sourceLink({ ...web, url: null }), null);
});

test('a long passage is found by its first and last words, a very long one by its start', () => {
  const words = Array.from({ length: 30 }, (_, i) => `w${i}`);
  assert.equal(textDirective(words.join(' ')), ':~:text=w0%20w1%20w2%20w3%20w4,w25%20w26%20w27%20w28%20w29');
  const many = Array.from({ length: 500 }, (_, i) => `w${i}`).join('\n');
  assert.equal(textDirective(many), ':~:text=w0%20w1%20w2%20w3%20w4%20w5%20w6%20w7%20w8%20w9');
  assert.equal(textDirective('**Bold** claim with `code`'), ':~:text=Bold%20claim%20with%20code');
});

test('an existing fragment is kept before the directive; an existing directive is left alone', () => {
  const quote = { text: 'the passage', start: null, end: null, verbatim: null };
  assert.equal(
    sourceLink({ ...web, url: 'https://example.com/a#part', quote }),
    'https://example.com/a#part:~:text=the%20passage',
  );
  assert.equal(
    sourceLink({ ...web, url: 'https://example.com/a#:~:text=other', quote }),
    'https://example.com/a#:~:text=other',
  );
});

test('PDFs open at their page and passage, in the terms of each viewer; other files get no directive', () => {
  const quote = { text: 'the passage', start: null, end: null, verbatim: null };
  assert.equal(
    sourceLink({ ...web, url: 'https://example.com/r.pdf', page: 3, quote }),
    'https://example.com/r.pdf#page=3&search=the%20passage&phrase=true:~:text=the%20passage',
  );
  assert.equal(sourceLink({ ...web, url: 'https://example.com/r.pdf', page: 3 }), 'https://example.com/r.pdf#page=3');
  const long = { text: '“Revenue rose by 4 % in 2024, driven by exports.”', start: null, end: null, verbatim: null };
  assert.equal(
    sourceLink({ ...web, url: 'https://example.com/r.pdf', page: null, quote: long }),
    'https://example.com/r.pdf#search=Revenue%20rose%20by%204%20%25%20in&phrase=true' +
      ':~:text=Revenue%20rose%20by%204%20%25%20in%202024%2C%20driven%20by%20exports',
  );
  // Open WebUI's own uploaded file: a PDF by its name.
  assert.equal(
    sourceLink({ ...web, url: '/api/v1/files/1/content', title: 'report.pdf', page: 2, quote }),
    '/api/v1/files/1/content#page=2&search=the%20passage&phrase=true:~:text=the%20passage',
  );
  assert.equal(
    sourceLink({ ...web, url: 'https://example.com/r.pdf#page=2', page: 3, quote }),
    'https://example.com/r.pdf#page=2',
  );
  assert.equal(sourceLink({ ...web, url: '/api/v1/files/1/content', quote }), '/api/v1/files/1/content');
});

test('an emoji across the 2,000 characters read, or half of one, is no error', () => {
  // encodeURIComponent throws on half a surrogate pair: sourceLink threw for such a snippet.
  const across = sourceLink({ ...web, snippet: `${'a'.repeat(1_999)}😀 more` });
  assert.equal(across, `https://example.com/article#:~:text=${'a'.repeat(1_999)}`);
  assert.equal(textDirective('lone \ud800 half'), ':~:text=lone%20%EF%BF%BD%20half');
  assert.equal(textDirective('\udc00'), ':~:text=%EF%BF%BD');
});

test('the ends of a snippet are trimmed of blanks, dots and quote marks however long their runs', () => {
  const run = ' .…"“”\'‘’«»'.repeat(100);
  assert.equal(textDirective(`${run}Red dwarfs${run}`), ':~:text=Red%20dwarfs');
  assert.equal(textDirective(`x${run}`), ':~:text=x');
  assert.equal(textDirective(run), null);
});
