import assert from 'node:assert/strict';
import { test } from 'node:test';
import { citation } from '../../test-support/citation.js';
import { splitCited } from './cited.js';

const FIVE = [1, 2, 3, 4, 5].map((n) => citation(n, { url: `https://s${n}.example/` }));
const numbers = ({ cited, retrieved }: ReturnType<typeof splitCited>) => [
  cited.map((c) => c.index),
  retrieved.map((c) => c.index),
];

test('the sources the markers cite come first; the others are retrieved, not cited', () => {
  assert.deepEqual(numbers(splitCited('A [1]. B [3][1]. C [doc5]', FIVE)), [
    [1, 3, 5],
    [2, 4],
  ]);
});

test('a text that cites nothing keeps every source in one list', () => {
  assert.deepEqual(numbers(splitCited('An answer with no marker at all.', FIVE)), [[1, 2, 3, 4, 5], []]);
  assert.deepEqual(numbers(splitCited('Cites a source we do not have [9].', FIVE)), [[1, 2, 3, 4, 5], []]);
});

test('offset spans, citation tags and links to a source cite it', () => {
  const anchored = FIVE.map((c) =>
    c.index === 2 ? { ...c, anchors: [{ start: 0, end: 4, unit: 'utf16' as const }] } : c,
  );
  assert.deepEqual(numbers(splitCited('Text anchored by offset.', anchored)), [[2], [1, 3, 4, 5]]);
  const tagged = 'Claim.<citation>{"number": 4, "url": "https://s4.example/"}</citation>';
  assert.deepEqual(numbers(splitCited(tagged, FIVE)), [[4], [1, 2, 3, 5]]);
  assert.deepEqual(numbers(splitCited('See ([the report](https://s3.example/)).', FIVE)), [[3], [1, 2, 4, 5]]);
});

test('a block that only lists the sources cites none of them', () => {
  const grok = 'Claim [[1]](https://s1.example/)\n\n## Sources\n[grok2api-sources]: #\n- [B](https://s2.example/)\n';
  assert.deepEqual(numbers(splitCited(grok, FIVE)), [[1], [2, 3, 4, 5]]);
  const openrag = 'An answer.\n[Sources: 1, 2]';
  assert.deepEqual(numbers(splitCited(openrag, FIVE)), [[1, 2, 3, 4, 5], []]);
});

test('never throws on what is not an answer', () => {
  assert.deepEqual(numbers(splitCited(null as unknown as string, FIVE)), [[], []]);
  assert.deepEqual(numbers(splitCited('[1]', null as unknown as [])), [[], []]);
});
