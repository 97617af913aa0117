import assert from 'node:assert/strict';
import { test } from 'node:test';

import { citation } from '../../../test-support/citation.js';
import { bibtex } from './bibtex.js';
import { cslJson } from './csl.js';
import { chatMarkdown, type MarkdownWords } from './markdown.js';
import { ris } from './ris.js';
import { bibliography, type ExportedAnswer } from './sources.js';

const words: MarkdownWords = {
  answer: (n) => `Answer ${n}`,
  sources: 'Sources',
  retrieved: 'Retrieved, not cited',
  page: (c) => (c.page === null ? null : `p. ${c.page}`),
  link: (c) => c.url,
};
const DAY = new Date('2026-11-27T10:00:00Z');
const absolute = (url: string) => new URL(url, 'https://owui.example/c/1').href;

const web = citation(1, { title: 'Red dwarfs', url: 'https://nasa.example/stars', kind: 'web', refs: [1] });
const pdf = citation(2, {
  title: 'Annual report',
  url: 'https://files.example/report.pdf',
  page: 3,
  pageEnd: 5,
  kind: 'document',
  refs: [2],
  quote: { text: 'Revenue rose 4 %', start: null, end: null, verbatim: null },
});
const unused = citation(3, { title: 'Unused', url: 'https://other.example/', refs: [3] });

test('markdown: each marker becomes its footnotes, numbered through the chat; retrieved listed apart', () => {
  const answers: ExportedAnswer[] = [
    { question: 'Which stars?', text: 'Most are red dwarfs [1]. Revenue rose [1, 2].', citations: [web, pdf, unused] },
    { question: null, text: 'Again [1].', citations: [web] },
  ];
  const markdown = chatMarkdown('Stars & money', answers, words);
  assert.match(
    markdown,
    /^# Stars & money\n\n## Answer 1\n\n> Which stars\?\n\nMost are red dwarfs\[\^1\]\. Revenue rose\[\^1\]\[\^2\]\./,
  );
  assert.match(
    markdown,
    /\n\[\^1\]: \[Red dwarfs\]\(https:\/\/nasa\.example\/stars\)\n\[\^2\]: \[Annual report\]\(https:\/\/files\.example\/report\.pdf\), p\. 3 — “Revenue rose 4 %”\n/,
  );
  assert.match(markdown, /\*\*Retrieved, not cited\*\*\n\n- \[Unused\]\(https:\/\/other\.example\/\)/);
  // The second answer's source 1 is footnote 3: two answers' footnotes never share a label.
  assert.match(markdown, /## Answer 2\n\nAgain\[\^3\]\.\n\n\[\^3\]: \[Red dwarfs\]/);
});

test('markdown: a source attached by offsets gets its footnote where its span ends', () => {
  const anchored = citation(1, {
    title: 'A',
    url: 'https://a.example/',
    anchors: [{ start: 0, end: 11, unit: 'utf16' }],
  });
  const markdown = chatMarkdown('t', [{ question: null, text: 'Claim one. Claim two.', citations: [anchored] }], words);
  assert.match(markdown, /\n\nClaim one\.\[\^1\] Claim two\.\n\n\[\^1\]: \[A\]/);
});

test('markdown: a source cited only by a link in the text is referenced after the answer', () => {
  const markdown = chatMarkdown(
    't',
    [{ question: null, text: 'See [the page](https://nasa.example/stars).', citations: [web] }],
    words,
  );
  assert.match(markdown, /\n\nSources: \[\^1\]\n\n\[\^1\]: /);
});

test('every file holds each source once, however many answers cite it', () => {
  const entries = bibliography(
    [
      { question: null, text: '[1] [2]', citations: [web, pdf] },
      { question: null, text: '[1]', citations: [web, unused] },
    ],
    absolute,
  );
  assert.deepEqual(
    entries.map((e) => [e.key, e.title, e.pages]),
    [
      ['source1', 'Red dwarfs', null],
      ['source2', 'Annual report', '3-5'],
      ['source3', 'Unused', null],
    ],
  );
  const csl = JSON.parse(cslJson(entries, DAY));
  assert.deepEqual(csl[1], {
    id: 'source2',
    type: 'document',
    title: 'Annual report',
    URL: 'https://files.example/report.pdf',
    accessed: { 'date-parts': [[2026, 11, 27]] },
    'container-title': 'files.example',
    page: '3-5',
    note: '“Revenue rose 4 %”',
  });
  assert.equal(csl[0].type, 'webpage');
  assert.match(
    bibtex(entries, DAY),
    /@misc\{source2,\n {2}title = \{Annual report\},\n {2}howpublished = \{files\.example\},\n {2}url = \{https:\/\/files\.example\/report\.pdf\},\n {2}urldate = \{2026-11-27\},\n {2}pages = \{3--5\},/,
  );
  assert.match(
    ris(entries, DAY),
    /TY {2}- GEN\nTI {2}- Annual report\nT2 {2}- files\.example\nUR {2}- https:\/\/files\.example\/report\.pdf\nY2 {2}- 2026\/11\/27\/\nSP {2}- 3\nEP {2}- 5\n/,
  );
});

test('a crafted title cannot add an entry, a field or a tag to a file', () => {
  const hostile = citation(1, {
    title: 'x}, note = {owned}}\n@misc{evil,\nTY  - JOUR\n\\input{/etc/passwd}',
    url: 'https://a.example/?q={x}',
    snippet: 'line\nER  - \nTY  - JOUR',
  });
  const entries = bibliography([{ question: null, text: '', citations: [hostile] }], absolute);
  const bib = bibtex(entries, DAY);
  assert.equal(bib.match(/^@/gm)?.length, 1);
  assert.doesNotMatch(bib, /\\input/);
  let depth = 0;
  for (const [i, c] of [...bib].entries()) {
    if (bib[i - 1] === '\\') continue;
    depth += c === '{' ? 1 : c === '}' ? -1 : 0;
    assert.ok(depth >= 0, 'a brace closes what it did not open');
  }
  assert.equal(depth, 0);
  const tagged = ris(entries, DAY);
  assert.equal(tagged.match(/^TY {2}- /gm)?.length, 1);
  assert.equal(tagged.match(/^ER {2}- /gm)?.length, 1);
  assert.equal(JSON.parse(cslJson(entries, DAY))[0].title, entries[0]!.title);
});

test('a date the producer wrote as ISO is issued as its parts, any other as it reads', () => {
  const dated = (date: string) =>
    JSON.parse(
      cslJson(bibliography([{ question: null, text: '', citations: [citation(1, { date })] }], absolute), DAY),
    )[0].issued;
  assert.deepEqual(dated('2024-05-01T10:00:00Z'), { 'date-parts': [[2024, 5, 1]] });
  assert.deepEqual(dated('2024-05'), { 'date-parts': [[2024, 5]] });
  assert.deepEqual(dated('May 2024'), { literal: 'May 2024' });
});
