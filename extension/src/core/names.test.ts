import assert from 'node:assert/strict';
import { test } from 'node:test';

import { distinctNames } from './names.js';

const named = (...titles: string[]) => distinctNames(titles.map((title) => ({ title })));

test('distinct titles are stored as they are', () => {
  assert.deepEqual(named('a.pdf', 'b.pdf'), ['a.pdf', 'b.pdf']);
});

test('a repeated title is numbered, so Open WebUI 0.6–0.7 keeps one entry per source', () => {
  assert.deepEqual(named('rapport.pdf', 'rapport.pdf', 'x', 'rapport.pdf'), [
    'rapport.pdf',
    'rapport.pdf (2)',
    'x',
    'rapport.pdf (3)',
  ]);
});

test('a number never gives the name of another source', () => {
  assert.deepEqual(named('a', 'a', 'a (2)'), ['a', 'a (3)', 'a (2)']);
  assert.equal(new Set(named(...Array.from({ length: 1000 }, () => 'same'))).size, 1000);
});
