import assert from 'node:assert/strict';
import { test } from 'node:test';

import { blocksFound, shownSources } from '../../../test-support/shown-sources.js';
import { footnoteDefinitions } from './footnote-definitions.js';

const TEXT = 'Fact[^1], fact[^2].\n\n[^1]: q [A](https://a.example/)\n\n[^2]: r [B](https://b.example/)';
const START = TEXT.indexOf('[^1]:');

test('footnote definitions closing the answer are hidden with the sources they link to that are shown', () => {
  const shown = [{ index: 4, url: 'https://b.example/' }];
  assert.deepEqual(blocksFound(footnoteDefinitions, shownSources(TEXT, shown)), [
    { start: START, end: TEXT.length, indices: [4] },
  ]);
});

test('definitions linking to no source shown, or in code, are left in place', () => {
  assert.deepEqual(blocksFound(footnoteDefinitions, shownSources(TEXT, [{ index: 1, url: 'https://c.example/' }])), []);
  const shown = [{ index: 1, url: 'https://a.example/' }];
  assert.deepEqual(blocksFound(footnoteDefinitions, shownSources(TEXT, shown, [[START, TEXT.length]])), []);
});
