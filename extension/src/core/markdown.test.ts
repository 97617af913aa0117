import assert from 'node:assert/strict';
import { test } from 'node:test';
import { citation } from '../../test-support/citation.js';
import { sourcesMarkdown } from './markdown.js';

const OPTIONS = {
  heading: 'Sources',
  page: (c: { page: number | null }) => (c.page ? `p. ${c.page}` : null),
  link: (c: { url: string | null }) => c.url,
};

test('number, title, link and page, one line each, under a heading', () => {
  const markdown = sourcesMarkdown(
    [citation(1, { url: 'https://a.example/x', page: 3 }), citation(4, { title: 'Offline' })],
    OPTIONS,
  );
  assert.equal(markdown, '**Sources**\n\n- [1] [Source 1](https://a.example/x), p. 3\n- [4] Offline\n');
});

test('a title cannot become markdown of its own, a link cannot end early', () => {
  const hostile = citation(2, { title: '](javascript:alert(1)) *bold* <b>\nnext', url: 'https://a.example/a (b)' });
  const line = sourcesMarkdown([hostile], OPTIONS).split('\n')[2];
  assert.equal(line, '- [2] [\\](javascript:alert(1)) \\*bold\\* \\<b\\> next](https://a.example/a%20%28b%29)');
});

test('no sources, no block', () => {
  assert.equal(sourcesMarkdown([], OPTIONS), '');
});
