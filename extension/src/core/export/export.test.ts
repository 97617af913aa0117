import assert from 'node:assert/strict';
import { test } from 'node:test';

import { citation } from '../../../test-support/citation.js';
import { bibtex } from './bibtex.js';
import { cslJson } from './csl.js';
import { fileStem } from './file-stem.js';
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

/** A `.bib` file read as BibTeX reads it: every brace counts, a backslash before one included.
 * Each entry's type, key and fields in order; null where the file is not a list of entries. */
function readBibtex(bib: string): { type: string; key: string; fields: [string, string][] }[] | null {
  const entries: { type: string; key: string; fields: [string, string][] }[] = [];
  const head = /\s*@(\w+)\{([^,\s]+),/y;
  const name = /\s*(\w+)\s*=\s*\{/y;
  let at = 0;
  while (at < bib.length && bib.slice(at).trim()) {
    head.lastIndex = at;
    const opened = head.exec(bib);
    if (!opened) return null;
    const entry = { type: opened[1]!, key: opened[2]!, fields: [] as [string, string][] };
    at = head.lastIndex;
    for (;;) {
      name.lastIndex = at;
      const field = name.exec(bib);
      if (!field) break;
      let depth = 1;
      let end = name.lastIndex;
      for (; end < bib.length && depth > 0; end++) depth += bib[end] === '{' ? 1 : bib[end] === '}' ? -1 : 0;
      if (depth > 0) return null;
      entry.fields.push([field[1]!, bib.slice(name.lastIndex, end - 1)]);
      at = /^\s*,/.test(bib.slice(end)) ? bib.indexOf(',', end) + 1 : end;
    }
    const closed = /^\s*\}/.exec(bib.slice(at));
    if (!closed) return null;
    at += closed[0].length;
    entries.push(entry);
  }
  return entries;
}

/** Every line break Unicode knows, and CRLF: where Python's `str.splitlines` (rispy reads lines so) breaks. */
const BREAKS = ['\r\n', '\r', '\n', '\u0085', '\u000b', '\u000c', '\u001c', '\u001d', '\u001e', '\u2028', '\u2029'];
const linesOf = (text: string): string[] => text.split(/\r\n|[\r\n\u0085\u000b\u000c\u001c-\u001e\u2028\u2029]/);
const exportedFrom = (...citations: ReturnType<typeof citation>[]) =>
  bibliography([{ question: null, text: '', citations }], absolute);

test('a crafted title cannot add an entry, a field or a tag to a file', () => {
  const hostile = citation(1, {
    title: 'x}, note = {owned}}\n@misc{evil,\nTY  - JOUR\n\\input{/etc/passwd}',
    url: 'https://a.example/?q={x}\\',
    snippet: 'line\nER  - \nTY  - JOUR',
  });
  const entries = exportedFrom(hostile);
  const bib = bibtex(entries, DAY);
  assert.deepEqual(
    readBibtex(bib)?.map((e) => [e.type, e.key, e.fields.map(([name]) => name)]),
    [['online', 'source1', ['title', 'organization', 'url', 'urldate', 'abstract']]],
  );
  assert.doesNotMatch(bib, /\\input/);
  const tagged = ris(entries, DAY);
  assert.equal(tagged.match(/^TY {2}- /gm)?.length, 1);
  assert.equal(tagged.match(/^ER {2}- /gm)?.length, 1);
  assert.equal(JSON.parse(cslJson(entries, DAY))[0].title, entries[0]!.title);
});

test('BibTeX: a crafted date, or a title and snippet that close braces, stay inside their fields (F1)', () => {
  // The security review's payloads: a date that closes the entry, and a title that closes its
  // field for a snippet to reopen, `\}` being no escape to BibTeX.
  const dated = citation(1, {
    title: 'Dated',
    url: 'https://a.example/',
    date: '2024T},a=1',
    snippet: '@online(evil, title = "INJECTED ENTRY", url = "https://evil.example/phish")',
  });
  const forged = citation(2, {
    title: 'a}, author = "Mallory Forged", x = "{',
    url: 'https://b.example/',
    snippet: '}"',
    quote: { text: '{{{ } \\} \\{ }}} %', start: null, end: null, verbatim: null },
    date: '2024-05-01T10:00:00Z',
  });
  const read = readBibtex(bibtex(exportedFrom(dated, forged), DAY));
  assert.deepEqual(
    read?.map((e) => [e.key, e.fields.map(([name]) => name)]),
    [
      ['source1', ['title', 'organization', 'url', 'urldate', 'abstract']],
      ['source2', ['title', 'organization', 'url', 'urldate', 'year', 'date', 'note', 'abstract']],
    ],
  );
  const fields = new Map(read![1]!.fields);
  assert.equal(fields.get('title'), 'a\\textbraceright{}, author = "Mallory Forged", x = "\\textbraceleft{}');
  assert.equal(fields.get('abstract'), '\\textbraceright{}"');
  assert.equal(fields.get('date'), '2024-05-01');
  assert.equal(fields.get('year'), '2024');
});

test('BibTeX: a date is written only from the parts of one that reads as ISO', () => {
  const dateOf = (date: string) =>
    new Map(readBibtex(bibtex(exportedFrom(citation(1, { date })), DAY))![0]!.fields).get('date') ?? null;
  assert.equal(dateOf('2024'), '2024');
  assert.equal(dateOf('2024-05'), '2024-05');
  assert.equal(dateOf('2024-05-01 10:00'), '2024-05-01');
  for (const junk of ['2024T},a=1', '2024-13-01', '2024-05-01T', '2024-05-01}', 'May 2024', '2024-05-01Tx', '20245'])
    assert.equal(dateOf(junk), null, junk);
});

test('RIS: a file name, container or any field with a line break of any kind stays one tag (F2)', () => {
  // A same-origin file whose name percent-encodes a record of its own (security review, F2).
  const file = citation(1, {
    title: 'Report',
    url: '/api/v1/files/x/content%0D%0AER%20%20-%20%0D%0A%0D%0ATY%20%20-%20ELEC%0D%0ATI%20%20-%20Forged%0D%0AUR%20%20-%20https:%2F%2Fevil.example',
    kind: 'file',
  });
  const broken = (field: string) => BREAKS.map((b) => `${field}${b}TY  - JOUR`).join('');
  const everyField = citation(2, {
    title: broken('title'),
    url: 'https://a.example/',
    date: broken('2024'),
    snippet: broken('snippet'),
    quote: { text: broken('quote'), start: null, end: null, verbatim: null },
  });
  const named = citation(3, { title: 'Named', url: '/f/a%C2%85TY%20%20-%20JOUR%E2%80%A8b%0Bc.pdf', kind: 'file' });
  const tagged = ris(exportedFrom(file, everyField, named), DAY);
  const lines = linesOf(tagged).filter(Boolean);
  assert.deepEqual(
    lines.filter((line) => !/^[A-Z][A-Z0-9] {2}- /.test(line)),
    [],
  );
  assert.deepEqual(
    lines.map((line) => line.slice(0, 2)),
    [
      ...['TY', 'TI', 'T2', 'UR', 'Y2', 'ER'],
      ...['TY', 'TI', 'T2', 'UR', 'Y2', 'N1', 'AB', 'ER'],
      ...['TY', 'TI', 'T2', 'UR', 'Y2', 'ER'],
    ],
  );
  assert.match(
    tagged,
    /^T2 {2}- content%0D%0AER - %0D%0A%0D%0ATY - ELEC%0D%0ATI - Forged%0D%0AUR - https:\/\/evil\.example$/m,
  );
});

test('CSL-JSON: every string value is one line', () => {
  const broken = BREAKS.map((b) => `x${b}`).join('');
  const items = JSON.parse(
    cslJson(exportedFrom(citation(1, { title: broken, url: '/f/a%0Ab.pdf', date: broken, snippet: broken })), DAY),
  );
  const strings = JSON.stringify(items, (_, value: unknown) => value).match(/"(?:[^"\\]|\\.)*"/g)!;
  for (const text of strings.map((s) => JSON.parse(s) as string)) assert.equal(linesOf(text).length, 1, text);
});

test('markdown: a crafted title, quote or link adds no footnote, link or heading line', () => {
  const crafted = citation(1, {
    title: '[^2]: [Forged](https://evil.example)\n# Heading [x](https://evil.example)',
    url: 'https://a.example/\\',
    quote: { text: '\n\n[^1]: [q](https://evil.example)\n## Heading', start: null, end: null, verbatim: null },
  });
  const other = citation(2, { title: ')](https://evil.example) [', url: 'https://b.example/(x)' });
  const markdown = chatMarkdown(
    '# [t](https://evil.example)',
    [{ question: null, text: 'A [1] [2].', citations: [crafted, other] }],
    words,
  );
  assert.deepEqual(
    markdown
      .split('\n')
      .filter((line) => /^\s{0,3}(#|\[\^)/.test(line))
      .map((line) => line.slice(0, 5)),
    ['# \\# ', '[^1]:', '[^2]:'],
  );
  // Each source's link, and no other: every unescaped "](" opens one of them.
  assert.deepEqual(
    [...markdown.matchAll(/(?<!\\)\]\(([^)\s]*)\)/g)].map((m) => m[1]),
    ['https://a.example/%5C', 'https://b.example/%28x%29'],
  );
});

/** The lines a viewer may read as a footnote's or a link label's definition: "[^1]:", "> [ ^1]:". */
const definitionLines = (markdown: string): string[] =>
  markdown.split('\n').filter((line) => /^ {0,3}(?:> ?)*\[\s*\^/.test(line));

test("markdown: a question's or answer's text cannot define, reference or capture the export's footnotes", () => {
  const forging = [
    'Claim [1].',
    '[^1]: Forged <https://evil.example/def>',
    '[ ^2]: https://evil.example/label',
    'Inline ^[Forged <https://evil.example/inline>] and [^note].',
    'Links [^1](https://evil.example/a) [2][x] [1]: and \\[1] ^[2]',
    '[x]: https://evil.example/x',
  ].join('\n');
  const markdown = chatMarkdown(
    't',
    [{ question: '[^2]: Forged by the question\n^[inline]', text: forging, citations: [web, pdf] }],
    words,
  );
  assert.deepEqual(definitionLines(markdown), [
    '[^1]: [Red dwarfs](https://nasa.example/stars)',
    '[^2]: [Annual report](https://files.example/report.pdf), p. 3 — “Revenue rose 4 %”',
  ]);
  assert.match(markdown, /\n> \\\[\^2\]: Forged by the question\n> \\\^\[inline\]\n/);
  assert.match(markdown, /\n\\\[\^1\]: Forged <https:\/\/evil\.example\/def>\n\\\[ \^2\]: https:/);
  assert.match(markdown, /Inline \\\^\[Forged <https:\/\/evil\.example\/inline>\] and \\\[\^note\]\./);
  // The export's references stay references: not a link's text, a definition, or escaped.
  assert.match(
    markdown,
    /\nLinks\[\^1\]\\\(https:\/\/evil\.example\/a\)\[\^2\]\\\[x\] \[1\]: and \\\\\[\^1\] \\\^\[\^2\]\n/,
  );
});

test("markdown: one answer's text cannot reference another answer's footnote, nor forge its heading's sources", () => {
  const answers: ExportedAnswer[] = [
    { question: null, text: 'First [1].\n\n## Answer 2\n\nForged [^3] [^2] [2].', citations: [web] },
    { question: null, text: 'Second [1].', citations: [citation(1, { title: 'Second', url: 'https://b.example/' })] },
  ];
  const markdown = chatMarkdown('t', answers, words);
  // The forged heading holds only the first answer's own references: its [2] names no source of it.
  assert.match(markdown, /\n## Answer 2\n\nForged\.\n\n\[\^1\]: \[Red dwarfs\]/);
  assert.match(markdown, /\n## Answer 2\n\nSecond\[\^2\]\.\n\n\[\^2\]: \[Second\]/);
  assert.deepEqual(
    definitionLines(markdown).map((line) => line.slice(0, 5)),
    ['[^1]:', '[^2]:'],
  );
});

test('markdown: code keeps its text; a code fence or HTML comment left open is closed before the footnotes', () => {
  const answer = (text: string) => chatMarkdown('t', [{ question: null, text, citations: [web] }], words);
  // In a fence every viewer reads as code, "[^1]" stays as written; the fence is closed after the text.
  assert.equal(
    answer('Code [1] x:\n\n````js\nconst re = /[^1]/; // ```\n[^1]: x'),
    '# t\n\nCode[^1] x:\n\n````js\nconst re = /[^1]/; // ```\n[^1]: x\n````\n\n[^1]: [Red dwarfs](https://nasa.example/stars)\n',
  );
  assert.match(answer('A [1].\n\n<!-- hidden'), /\n<!-- hidden\n-->\n\n\[\^1\]: /);
  // A line that only seemed to start HTML does not hide a comment after it. A fence line a comment
  // ends in is the comment's to a viewer that reads HTML, a fence to one that does not: closed both ways.
  assert.match(answer('A [1].\n</pre> text\n<!-- hidden'), /\n<!-- hidden\n-->\n\n\[\^1\]: /);
  assert.match(answer('A [1].\n\n<!-- a\n~~~ b -->'), /\n~~~ b -->\n~~~~ text\n```\n~~~~ text\n~~~~\n\n\[\^1\]: /);
  // A fence in a list item, then a line the item ends at: one viewer's fence may be open, another's
  // closed. Four lines close either; the text in it is escaped (a viewer may read it as text).
  assert.match(
    answer('1. A [1].\n   ```\nout\n[^1]: forged\n```'),
    /\n\\\[\^1\]: forged\n```\n~~~ text\n````\n~~~ text\n~~~\n\n\[\^1\]: \[Red dwarfs\]/,
  );
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

test('a file name has no control, format or bidi character, no blank or dot at its ends, and no half emoji', () => {
  // The security review's names (2026-11-27, F11): a right-to-left override that shows "txt.exe",
  // a C1 control, a cut between the halves of an emoji, a leading blank and dots.
  assert.equal(fileStem('Invoice \u202Etxt.exe'), 'Invoice txt.exe');
  assert.equal(fileStem('a\u0085b\u2028c\u200Bd\uFEFFe\u2066f\u0000g\u001Bh'), 'a b cdef g h');
  assert.equal(fileStem(`${'x'.repeat(79)}😀😀`), `${'x'.repeat(79)}😀`);
  assert.equal(fileStem('😀'.repeat(100)), '😀'.repeat(80));
  assert.equal(fileStem(' .. /etc/passwd'), 'etc passwd');
  assert.equal(fileStem(`notes. . .${' '.repeat(100)}end`), 'notes. . . end');
  assert.equal(fileStem(`${'a'.repeat(79)} .b`), 'a'.repeat(79));
  assert.equal(fileStem('lone \ud83d half'), 'lone half');
  assert.equal(fileStem('Réunion: plan*final?'), 'Réunion plan final');
  for (const empty of ['', ' ', '...', '\u202E', '\u0000\u0085']) assert.equal(fileStem(empty), 'chat');
});
