import assert from 'node:assert/strict';
import { test } from 'node:test';

import { spanToUtf16, toUtf16 } from './offsets.js';

const TEXT = 'a😀é中b'; // 1 + 2 + 1 + 1 + 1 UTF-16 units; 1 + 4 + 2 + 3 + 1 UTF-8 bytes

test('code points and UTF-8 bytes become UTF-16 offsets', () => {
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5].map((i) => toUtf16(TEXT, i, 'codePoints')),
    [0, 1, 3, 4, 5, 6],
  );
  assert.deepEqual(
    [0, 1, 5, 7, 10, 11].map((i) => toUtf16(TEXT, i, 'utf8')),
    [0, 1, 3, 4, 5, 6],
  );
  assert.equal(toUtf16(TEXT, 6, 'utf16'), 6);
});

test('offsets outside the text or inside a character are refused', () => {
  assert.equal(toUtf16(TEXT, 7, 'codePoints'), null);
  assert.equal(toUtf16(TEXT, 3, 'utf8'), null); // inside the emoji's four bytes
  assert.equal(toUtf16(TEXT, -1, 'utf16'), null);
  assert.equal(toUtf16(TEXT, 1.5, 'utf16'), null);
  assert.equal(spanToUtf16(TEXT, 3, 1, 'codePoints'), null);
  assert.deepEqual(spanToUtf16(TEXT, 1, 2, 'codePoints'), [1, 3]); // the emoji, whole
});

test('offsets asked in any order, and for texts in turn, convert the same', () => {
  const other = '中中中abc';
  const forward = [0, 1, 5, 7, 10, 11].map((i) => toUtf16(TEXT, i, 'utf8'));
  const backward = [11, 10, 7, 5, 1, 0].map((i) => toUtf16(TEXT, i, 'utf8')).reverse();
  const interleaved = [0, 1, 5, 7, 10, 11].map((i) => [toUtf16(other, i, 'utf8'), toUtf16(TEXT, i, 'utf8')][1]);
  assert.deepEqual(backward, forward);
  assert.deepEqual(interleaved, forward);
  assert.deepEqual(
    [3, 6, 9, 12].map((i) => toUtf16(other, i, 'utf8')),
    [1, 2, 3, 6],
  );
  assert.equal(toUtf16(TEXT, 3, 'utf8'), null); // inside a character, after a cursor moved past it
  assert.equal(toUtf16(TEXT, 12, 'utf8'), null);
});
