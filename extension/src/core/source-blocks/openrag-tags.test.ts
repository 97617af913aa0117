import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { blocksFound, shownSources } from '../../../test-support/shown-sources.js';
import { openragTags, sourcesTags } from './openrag-tags.js';

// OpenRAG's own stripping regex, which linkMarkers used to run: cubic on a run of blanks that fails
// at its end. Kept here as the reference the linear reading must agree with, on short lines.
const OPENRAG_TAG = /^[ \t]*\[?Sources?\]?[ \t]*:[ \t]*\[?(?<nums>[\d, \t]+)\]?[. \t]*$/gim;

test('"Sources:" tags are the lines OpenRAG\'s regex matches, with the list it captures', () => {
  const piece = fc.constantFrom(
    ...['Sources', 'source', 'SOURCES', 'Sourcess', ':', '[', ']', ' ', '\t', '  ', '1', '23', ',', '.', 'x', '-'],
    ...['\n', '\r', '\r\n', '\u2028', '\u2029', '[Sources: ', 'Sources: [', '] .'],
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
      const text = pieces.join('');
      const expected = [...text.matchAll(OPENRAG_TAG)].map((m) => ({
        start: m.index,
        end: m.index + m[0].length,
        list: m.groups!.nums!.replace(/[ \t]+/g, ''),
      }));
      assert.deepEqual(sourcesTags(text), expected, JSON.stringify(text));
    }),
    { numRuns: Number(process.env.FC_RUNS ?? 2_000) * 10 },
  );
});

test('a tag is hidden when its numbers name a source shown, and not in code', () => {
  const text = 'A claim.\n[Sources: 1, 3]\nMore.\nSources: [7].\n`Sources: 1`';
  assert.deepEqual(blocksFound(openragTags, shownSources(text, [{ index: 1 }, { index: 3 }])), [
    { start: 9, end: 24, indices: [1, 3] },
  ]);
  assert.deepEqual(blocksFound(openragTags, shownSources(text, [{ index: 1 }], [[9, 24]])), []);
});
