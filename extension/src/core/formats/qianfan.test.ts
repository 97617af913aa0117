import assert from 'node:assert/strict';
import { test } from 'node:test';

import { extractCitations } from '../extract.js';
import { linkMarkers } from '../markers.js';

const answer = (content: string) => [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }];

test("a marker names the result whose index it writes, not the result at that place; Perplexity's list stays Perplexity's", () => {
  const text = '甲^[3]^。乙^[5][3]^。丙^[1]^。';
  const body = {
    choices: answer(text),
    search_results: [
      { index: 5, url: 'https://e.example/five', title: 'Five' },
      { url: 'https://e.example/unnumbered', title: 'No index' }, // listed, named by no marker
      { index: 3, url: 'https://e.example/three', title: 'Three' },
    ],
  };
  const { format, citations } = extractCitations(body);
  assert.equal(format, 'qianfan');
  assert.deepEqual(
    citations.map((c) => [c.index, c.title, c.refs]),
    [
      [1, 'Five', [5]],
      [2, 'No index', []],
      [3, 'Three', [3]],
    ],
  );
  assert.deepEqual(
    linkMarkers(text, citations).map((s) => [text.slice(s.start, s.end), s.indices, s.unnamed]),
    [
      ['^[3]^', [3], undefined],
      ['^[5][3]^', [1, 3], undefined],
      ['^[1]^', [], [1]],
    ],
  );

  // Without an index, the same key is Perplexity's: numbered by place.
  const perplexity = extractCitations({ choices: answer('[1]'), search_results: [{ url: 'https://e.example/a' }] });
  assert.equal(perplexity.format, 'perplexity');
});
