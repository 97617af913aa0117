import assert from 'node:assert/strict';
import { test } from 'node:test';

import { citation } from '../../test-support/citation.js';
import { isMarkerText, linkMarkers, type MarkerSpan, writtenMarker } from './markers.js';
import { answerTags } from './tags.js';

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

test('years, indices, links to no source, footnote definitions, links and code are left alone', () => {
  const text =
    'In [2024] at [0] or [1, 2024] see [[9]](https://n.example/) or [text](https://x.example) `[1]`\n```\n[2]\n```\n[^1]: a footnote';
  assert.deepEqual(covered(text, linkMarkers(text, THREE)), [['[1, 2024]', [1], 'marker']]);
});

test('a marker naming a source the backend did not send says which numbers name none', () => {
  const text = 'A [9]. B [1, 7, 7]. C [doc8] D [^6] E 【5】 F [ID:4] G [1]';
  const spans = linkMarkers(text, THREE);
  assert.deepEqual(
    spans.map((s) => [text.slice(s.start, s.end), s.indices, s.unnamed]),
    [
      ['[9]', [], [9]],
      ['[1, 7, 7]', [1], [7]],
      ['[doc8]', [], [8]],
      ['[^6]', [], [6]],
      ['【5】', [], [5]],
      ['[ID:4]', [], [4]],
      ['[1]', [1], undefined],
    ],
  );
  assert.deepEqual(linkMarkers('A [9].', []), [], 'an answer without sources: no marker is a citation');
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
    ['[ID:7]', [], 'marker'], // names no chunk
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

test('"Sources:" with 10,000 blanks and tabs: read once, hidden when the line is a tag', () => {
  // Today's regex took seconds on 2,000 blanks (cubic) and minutes on 4,000 tabs.
  const blanks = ' \t'.repeat(5_000);
  for (const [line, hidden] of [
    [`Sources:${blanks}x`, false],
    [`[Sources]:${blanks}[`, false],
    [`Sources:${blanks}1,${blanks}2${blanks}.`, true],
    [`[Sources:${blanks}1]${blanks}`, true],
    [`Sources: 1${','.repeat(10_000)}3`, true],
  ] as const) {
    const text = `Claim [1].\n${line}\nMore.`;
    assert.deepEqual(
      linkMarkers(text, THREE).map((s) => [s.kind, s.start]),
      hidden
        ? [
            ['marker', 6],
            ['hide', 11],
          ]
        : [['marker', 6]],
      line.slice(0, 20),
    );
  }
});

test('anchors: thousands on one span or point, listed in any order, keep the first come', () => {
  const text = `Claim [1]. ${'😀 '.repeat(2_000)}end.`;
  const marker = { start: 6, end: 9 };
  const anchors = [
    { start: 11, end: text.length }, // a link over the emoji, first come
    { start: 11, end: text.length }, // the same span again: one link
    { start: 12, end: 20 }, // inside it: dropped
    { start: 7, end: 8 }, // inside the marker: dropped
    { start: 6, end: 6 }, // a point at the marker's start: kept
    { start: 8, end: 8 }, // a point inside the marker: dropped
    { start: 0, end: 5 }, // "Claim"
  ].map((a) => ({ ...a, unit: 'utf16' as const }));
  const one = citation(1, { anchors });
  const two = citation(2, { anchors: [anchors[0]!, anchors[6]!] });
  const spans = linkMarkers(text, [one, two]);
  assert.deepEqual(
    spans.map((s) => [s.start, s.end, s.indices, s.kind]),
    [
      [0, 5, [1, 2], 'link'],
      [marker.start, marker.start, [1], 'link'],
      [marker.start, marker.end, [1], 'marker'],
      [11, text.length, [1, 2], 'link'],
    ],
  );
  // Then the same spans many times over, counted in code points, listed from the end of the text
  // (each conversion used to count from the start): nothing more.
  const toCodePoints = (at: number) => [...text.slice(0, at)].length;
  const spansOnly = anchors.filter((a) => a.start < a.end).sort((a, b) => b.start - a.start);
  const repeated = anchors
    .concat(Array.from({ length: 3_000 }, (_, i) => spansOnly[i % spansOnly.length]!))
    .map((a) => ({ start: toCodePoints(a.start), end: toCodePoints(a.end), unit: 'codePoints' as const }));
  const again = linkMarkers(text, [citation(1, { anchors: repeated }), two]);
  assert.deepEqual(
    again.map((s) => [s.start, s.end, s.indices, s.kind]),
    spans.map((s) => [s.start, s.end, s.indices, s.kind]),
  );
});

test("FastGPT's [id](CITE) names a source by its id; an id of none stays the link it is", () => {
  const sources = [citation(1, { id: '6650c0a1b2c3d4e5f6a7b801' }), citation(2, { id: '6650c0a1b2c3d4e5f6a7b802' })];
  const text =
    'A[6650c0a1b2c3d4e5f6a7b801](CITE)。B【6650c0a1b2c3d4e5f6a7b802】(CITE) C [6650c0a1b2c3d4e5f6a7b8ff](CITE)';
  assert.deepEqual(covered(text, linkMarkers(text, sources)), [
    ['[6650c0a1b2c3d4e5f6a7b801](CITE)', [1], 'marker'],
    ['【6650c0a1b2c3d4e5f6a7b802】(CITE)', [2], 'marker'],
  ]);
  // Open WebUI draws it as a link, not as a citation button of its own.
  assert.deepEqual(writtenMarker('[6650c0a1b2c3d4e5f6a7b801](CITE)'), { drawnByOpenWebui: false, numbers: [] });
});

test("Writer's [name](file id): a link to a source's id is its marker; to no source's id, to a web page, in code, it stays a link", () => {
  const [handbook, faq] = ['7b1e4c2a-90d3-4f6e-b8a5-1c2d3e4f5a6b', 'e2a9f0c4-3b5d-4c7e-8f91-0a1b2c3d4e5f'];
  const sources = [
    citation(1, { id: handbook }),
    citation(2, { id: faq }),
    citation(3, { id: 'https://w.example/leave', url: 'https://w.example/leave' }),
    citation(4, { id: '#4' }),
    citation(5, { id: '/api/v1/files/f5/content', url: '/api/v1/files/f5/content' }),
  ];
  const text =
    `Leave is 25 days [Employee-Handbook-2026.pdf](${handbook}), five carry over [Leave-Policy-FAQ.docx](${faq}). ` +
    `See [the policy](https://w.example/leave), [the file](/api/v1/files/f5/content), [an old file](0c9d8e7f-6a5b), ` +
    `[below](#4) and \`[x](${faq})\` [2].`;
  assert.deepEqual(covered(text, linkMarkers(text, sources)), [
    [`[Employee-Handbook-2026.pdf](${handbook})`, [1], 'marker'],
    [`[Leave-Policy-FAQ.docx](${faq})`, [2], 'marker'],
    ['[2]', [2], 'marker'],
  ]);
  // Open WebUI draws it as a link, not as a citation button of its own.
  assert.equal(writtenMarker(`[2026 Handbook.pdf](${handbook})`).drawnByOpenWebui, false);
});

test("Qianfan's ^[1]^ and ^[1][2]^: one marker, carets and all; without its closing caret, the plain [n]", () => {
  const sources = [citation(1, { refs: [1] }), citation(2, { refs: [3] })];
  const text = '都灵主场作战^[1]^，近期状态一般^[1][3]^。 A ^[7]^ B ^[1] C `^[3]^` D ^[2024]^';
  assert.deepEqual(
    linkMarkers(text, sources).map((s) => [text.slice(s.start, s.end), s.indices, s.unnamed]),
    [
      ['^[1]^', [1], undefined],
      ['^[1][3]^', [1, 2], undefined],
      ['^[7]^', [], [7]], // names a result the backend did not send
      ['[1]', [1], undefined], // no closing caret: the bracket alone
      // in code: nothing; a year in superscript brackets: no citation at all
    ],
  );
  // Open WebUI draws the brackets between the carets as one button of its own.
  assert.deepEqual(writtenMarker('^[1][3]^'), { drawnByOpenWebui: true, numbers: [1, 3] });
});

test('Qianfan markers: a run of brackets longer than a marker names, and runs of "^[", read once', () => {
  const brackets = (n: number) => '[1]'.repeat(n);
  // Fifty brackets are one marker; fifty-one are the plain markers they hold, the carets left as text.
  assert.deepEqual(
    linkMarkers(`x^${brackets(50)}^`, THREE).map((s) => s.end - s.start),
    [2 + 3 * 50],
  );
  assert.equal(linkMarkers(`x^${brackets(51)}^`, THREE).length, 51);
  // Runs that never close, or never open (linear.test.ts times them): what they hold, once.
  const written = (text: string) => linkMarkers(text, THREE).map((s) => text.slice(s.start, s.end));
  assert.deepEqual(written(`^${brackets(100_000)}`), Array(100_000).fill('[1]'));
  assert.deepEqual(written('^['.repeat(100_000)), []);
  assert.deepEqual(written(`${'^[1'.repeat(50_000)}]^`), ['^[1]^']);
});

test('a number after a label, as unknown backends write it: [ref_n], [citation:n], [cite: n, m], [source:n]', () => {
  const text =
    'A [ref_1] B [citation:2] C [cite: 1, 3] D [ref:3] E [source:2] F [citation:9] G [ref_1](https://x.example/)';
  assert.deepEqual(
    linkMarkers(text, THREE).map((s) => [text.slice(s.start, s.end), s.indices, s.unnamed]),
    [
      ['[ref_1]', [1], undefined],
      ['[citation:2]', [2], undefined],
      ['[cite: 1, 3]', [1, 3], undefined],
      ['[ref:3]', [3], undefined],
      ['[source:2]', [2], undefined],
      ['[citation:9]', [], [9]], // names a source the backend did not send
    ],
  );
  // Open WebUI draws no button of its own for them.
  assert.deepEqual(writtenMarker('[ref_2]'), { drawnByOpenWebui: false, numbers: [2] });
});

test('labelled markers: long runs of "[", "[ref_", "[citation:", "【" and digits hold no marker', () => {
  const written = (text: string) => linkMarkers(text, THREE).map((s) => text.slice(s.start, s.end));
  for (const unit of ['[', '[ref_', '[citation:', '[cite: ', '【', '[ref_1', '[citation:1, '])
    assert.deepEqual(written(unit.repeat(50_000)), [], unit);
  assert.deepEqual(written(`[ref_${'1'.repeat(100_000)}]`), []);
  assert.deepEqual(written(`${'[ref_'.repeat(50_000)}1]`), ['[ref_1]']);
});

test("a link's text is a marker when it is a number, bracketed or not; the UI hides that link for its button", () => {
  assert.deepEqual(['[1]', ' 12 ', '3', '[1', '[1][2]', '1.', 'Spain', '[]', ''].map(isMarkerText), [
    true,
    true,
    true,
    true,
    false,
    false,
    false,
    false,
    false,
  ]);
});

test("Brave's citation tag names its source by its number, a string of digits too; other tags name none", () => {
  const text = '<citation>{"number": 2}</citation><citation>{"number": " 3 "}</citation><usage>{"number": 4}</usage>';
  assert.deepEqual(
    answerTags(text).map((tag) => tag.citedNumber),
    [2, 3, null],
  );
});

test('every notation the generic reader recognises (notations.ts) links to the right source', () => {
  const sources = [
    citation(1, { refs: [1], url: 'https://a.example/' }),
    citation(2, { refs: [2], url: 'https://b.example/' }),
    citation(3, { refs: [12] }),
  ];
  const text =
    'A [1]. B [^2]. C [^1^]. D 【2】 E 【1†source】. F word¹ G word¹² H<sup>2</sup> I<sup>1, 2</sup> J [2](https://b.example/) K [[1](https://a.example/)].';
  assert.deepEqual(covered(text, linkMarkers(text, sources)), [
    ['[1]', [1], 'marker'],
    ['[^2]', [2], 'marker'],
    ['[^1^]', [1], 'marker'],
    ['【2】', [2], 'marker'],
    ['【1†source】', [1], 'marker'],
    ['¹', [1], 'marker'],
    ['¹²', [3], 'marker'],
    ['<sup>2</sup>', [2], 'marker'],
    ['<sup>1, 2</sup>', [1, 2], 'marker'],
    ['[2](https://b.example/)', [2], 'marker'],
    ['[[1](https://a.example/)]', [1], 'marker'],
  ]);
});

test('a superscript that names no source is a power, not a citation the backend forgot', () => {
  const text = 'An area of 3 m², 2 cm³ and x³, cited [^4^] and <sup>5</sup>, or by a number no source has.⁹';
  assert.deepEqual(
    linkMarkers(text, THREE).map((s) => [text.slice(s.start, s.end), s.unnamed ?? []]),
    [
      ['[^4^]', [4]],
      ['<sup>5</sup>', [5]],
    ],
  );
});
