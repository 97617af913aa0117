import assert from 'node:assert/strict';
import { test } from 'node:test';
import { citation } from '../test-support/citation.js';
import { linkMarkers, type MarkerSpan, writtenMarker } from './markers.js';

const THREE = [citation(1), citation(2), citation(3)];
const covered = (text: string, spans: MarkerSpan[]) =>
  spans.map((s) => [text.slice(s.start, s.end), s.indices, s.kind]);

test('numeric markers: single, lists, ranges, adjacent, glued to words', () => {
  const text = 'A[1]. B [1, 2] C [2-3] D[1][3] E [^2] F 【3】 G 【1:0†source】';
  assert.deepEqual(covered(text, linkMarkers(text, THREE)), [
    ['[1]', [1], 'marker'],
    ['[1, 2]', [1, 2], 'marker'],
    ['[2-3]', [2, 3], 'marker'],
    ['[1]', [1], 'marker'],
    ['[3]', [3], 'marker'],
    ['[^2]', [2], 'marker'],
    ['【3】', [3], 'marker'],
    ['【1:0†source】', [1], 'marker'],
  ]);
});

test('producer markers map through refs and URLs', () => {
  const sources = [
    citation(1, { refs: [1, 3], url: 'https://a.example/' }),
    citation(2, { refs: [2], url: 'https://b.example/x' }),
  ];
  const text = 'x [doc3] y [[7]](https://b.example/x) z [1](https://a.example/)';
  assert.deepEqual(covered(text, linkMarkers(text, sources)), [
    ['[doc3]', [1], 'marker'],
    ['[[7]](https://b.example/x)', [2], 'marker'],
    ['[1](https://a.example/)', [1], 'marker'],
  ]);
});

test('markers that match no citation, footnote definitions, links and code are left alone', () => {
  const text = 'In [2024] see [9] or [text](https://x.example) `[1]`\n```\n[2]\n```\n[^1]: a footnote';
  assert.deepEqual(linkMarkers(text, THREE), []);
});

test('OpenRAG tags and the grok2api Sources block are reported to hide', () => {
  const tagged = 'Answer line.\n[Sources: 1, 3]';
  assert.deepEqual(covered(tagged, linkMarkers(tagged, THREE)), [['[Sources: 1, 3]', [1, 3], 'hide']]);
  const inline = 'See [Sources: 1] and more.'; // not line-terminal: OpenRAG keeps it
  assert.deepEqual(
    covered(inline, linkMarkers(inline, THREE)).map(([, , kind]) => kind),
    [],
  );
  const grok = 'Claim [[1]](https://a.example/)\n\n## Sources\n[grok2api-sources]: #\n- [A](https://a.example/)\n';
  const spans = linkMarkers(grok, [citation(1, { url: 'https://a.example/' })]);
  assert.deepEqual(
    spans.map((s) => s.kind),
    ['marker', 'hide'],
  );
  assert.equal(spans[1]!.end, grok.length);
});

test('offset anchors: converted to UTF-16, leading space dropped, merged with the marker they cover', () => {
  const text = '😀 Spain won ([uefa.com](https://u.example/)). Claim [[1]](https://u.example/)';
  const link = text.indexOf('([uefa');
  const marker = text.indexOf(' [[1]]');
  const cp = (i: number) => [...text.slice(0, i)].length;
  const source = citation(1, {
    url: 'https://u.example/',
    anchors: [
      { start: cp(link), end: cp(text.indexOf('. Claim')), unit: 'codePoints' },
      { start: cp(marker), end: cp(text.length), unit: 'codePoints' },
      { start: 999, end: 1000, unit: 'codePoints' }, // outside the text: ignored
    ],
  });
  assert.deepEqual(covered(text, linkMarkers(text, [source])), [
    ['([uefa.com](https://u.example/))', [1], 'link'],
    ['[[1]](https://u.example/)', [1], 'marker'],
  ]);
  // A piece of the answer (one text node) is not what the offsets index: only its written markers.
  assert.deepEqual(covered(text, linkMarkers(text, [source], { anchors: false })), [
    ['[[1]](https://u.example/)', [1], 'marker'],
  ]);
});

test('no text or no citations: no spans', () => {
  assert.deepEqual(linkMarkers('', THREE), []);
  assert.deepEqual(linkMarkers('a [1]', []), []);
  assert.deepEqual(linkMarkers(null as unknown as string, THREE), []);
});

test('RAGFlow markers: [ID:n] and the variants it repairs only in its final answer', () => {
  const chunks = [citation(1, { refs: [0] }), citation(2, { refs: [1, 2] })];
  const text = 'A [ID:0]. B [ID: 2] C (ID: 1) D 【ID:0】 E [ID:7] F (ID 1) G `[ID:0]`';
  assert.deepEqual(covered(text, linkMarkers(text, chunks)), [
    ['[ID:0]', [1], 'marker'],
    ['[ID: 2]', [2], 'marker'],
    ['(ID: 1)', [2], 'marker'],
    ['【ID:0】', [1], 'marker'],
  ]);
});

test('footnote definitions closing the answer are reported to hide once their sources are shown', () => {
  const sources = [citation(1, { url: 'https://a.example/' }), citation(2, { url: 'https://b.example/' })];
  const text = 'Fact[^1], fact[^2].\n\n[^1]: q [A](https://a.example/)\n\n[^2]: r [B](https://b.example/)';
  assert.deepEqual(covered(text, linkMarkers(text, sources)), [
    ['[^1]', [1], 'marker'],
    ['[^2]', [2], 'marker'],
    [text.slice(text.indexOf('[^1]:')), [1, 2], 'hide'],
  ]);
  // nothing it lists is shown
  assert.deepEqual(linkMarkers('Fact[^9].\n\n[^9]: q [C](https://c.example/)', sources), []);
});

test('a marker as Open WebUI reads it: its own button for a bracket and a digit, the numbers written', () => {
  assert.deepEqual(writtenMarker('[2, 5]'), { drawnByOpenWebui: true, numbers: [2, 5] });
  assert.deepEqual(writtenMarker('[[3]](https://a.example/)'), { drawnByOpenWebui: true, numbers: [3] });
  assert.deepEqual(writtenMarker('[doc1]'), { drawnByOpenWebui: false, numbers: [1] });
  assert.deepEqual(writtenMarker('【1】'), { drawnByOpenWebui: false, numbers: [] });
});
