import assert from 'node:assert/strict';
import { test } from 'node:test';

import { citation } from '../../../test-support/citation.js';
import { blocksFound, shownSources } from '../../../test-support/shown-sources.js';
import { linkMarkers } from '../markers.js';
import { grok2apiSources } from './grok2api-sources.js';

test("grok2api's Sources block, marked by its line, is hidden with the citations of what it holds", () => {
  const text = 'Claim [[1]](https://a.example/)\n\n## Sources\n[grok2api-sources]: #\n- [A](https://a.example/)\n';
  assert.deepEqual(blocksFound(grok2apiSources, shownSources(text, [])), [
    { start: text.indexOf('\n\n## Sources'), end: text.length, indices: 'cited-inside', heading: 'Sources' },
  ]);
});

test('a Sources heading without its mark, or not closing the answer, is no block of grok2api', () => {
  for (const text of ['Claim.\n\n## Sources\n- [A](https://a.example/)\n', 'Claim.\n## Sources\n[grok2api-sources]: #'])
    assert.deepEqual(blocksFound(grok2apiSources, shownSources(text, [])), [], text);
});

test('the hidden block lists the sources its own markers cite, which are hidden with it', () => {
  const text = 'Claim [1].\n\n## Sources\n[grok2api-sources]: #\n- [[2]](https://b.example/) B\n- [3] C\n';
  const spans = linkMarkers(text, [citation(1), citation(2), citation(3)]);
  assert.deepEqual(
    spans.map((span) => [text.slice(span.start, span.end), span.kind, span.indices]),
    [
      ['[1]', 'marker', [1]],
      [text.slice(text.indexOf('\n\n## Sources')), 'hide', [2, 3]],
    ],
  );
});
