import assert from 'node:assert/strict';
import { test } from 'node:test';

import { citation } from '../../test-support/citation.js';
import { splitCited } from './cited.js';
import { extractCitations } from './extract.js';
import { linkMarkers } from './markers.js';
import { referencesBlock } from './references.js';

const answer = (content: string) => ({ choices: [{ message: { role: 'assistant', content } }] });

test("LightRAG's numbered list (prompt since 1.4.9): its heading, numbers and titles, where it starts", () => {
  const text =
    'Vaccinate early [1] and walk twice a day [2].\n\n### References\n\n- [1] puppy-vaccination.md\n* [2] docs/dog care guide.txt\n';
  const block = referencesBlock(text)!;
  assert.equal(
    text.slice(block.start),
    '### References\n\n- [1] puppy-vaccination.md\n* [2] docs/dog care guide.txt\n',
  );
  assert.equal(block.heading, 'References');
  assert.deepEqual(block.references, [
    { n: 1, tag: null, title: 'puppy-vaccination.md' },
    { n: 2, tag: null, title: 'docs/dog care guide.txt' },
  ]);
});

test('the older prompts: [KG] entities and relations, [DC] files, under a "References" section', () => {
  for (const heading of ['References:', '**References**', '**References:**', '## References', '### **References**']) {
    const text = `Puppies see a vet monthly.\n\n${heading}\n- [KG] Puppy\n- [KG] Veterinarian ~ Puppy\n1. [DC] puppy-vaccination.md`;
    const block = referencesBlock(text);
    assert.ok(block, heading);
    assert.equal(block.heading, heading.includes(':') ? 'References:' : 'References');
    assert.deepEqual(
      block.references.map((r) => [r.tag, r.title]),
      [
        ['KG', 'Puppy'],
        ['KG', 'Veterinarian ~ Puppy'],
        ['DC', 'puppy-vaccination.md'],
      ],
    );
  }
});

test('a title the model wrapped on the next line is one title, as markdown reads the list item', () => {
  const block = referencesBlock('A.\n### References\n- [1] a very long\n  file name.pdf\n- [2]\nb.md\n\n')!;
  assert.deepEqual(
    block.references.map((r) => r.title),
    ['a very long\n  file name.pdf', 'b.md'],
  );
});

test('a caret the prompt forbids, CRLF lines and blank lines between references are read', () => {
  const block = referencesBlock('A [^1].\r\n\r\n### References\r\n\r\n- [^1] a.md\r\n\r\n- [2] b.md\r\n')!;
  assert.deepEqual(
    block.references.map((r) => [r.n, r.title]),
    [
      [1, 'a.md'],
      [2, 'b.md'],
    ],
  );
});

test('ordinary answers are not read as a references list', () => {
  const ordinary = [
    'Plain answer without any list.',
    'See the references below.\n\n- Smith, J. (2020). Dogs.\n- [1] a.md',
    // A "References" heading with ordinary bullets, links or footnotes.
    '### References\n\n- Smith, J. (2020). Dogs. Journal of Pets.\n- Doe, A. (2021). Cats.',
    '### References\n\n- [Dogs](https://a.example/dogs)\n- [Cats](https://a.example/cats)',
    '## References\n\n1. Smith 2020\n2. Doe 2021',
    '### References\n\n[^1]: A quote. [Dogs](https://a.example/)',
    // A references list followed by more text, or with a line that is no reference in it.
    '### References\n- [1] a.md\n\nHope this helps!',
    '### References\n- [1] a.md\n\n- Not a reference\n- [2] b.md',
    // Reference lines with no heading above them, or another heading.
    'Answer.\n\n- [1] a.md\n- [2] b.md',
    'Answer.\n\n### Sources\n- [1] a.md',
    '### References\nAnswer text here.\n\n- [1] a.md',
    // Numbers that are no reference numbers, brackets that are links or checkboxes.
    '### References\n- [2024] the year\n- [0] zero',
    '### References\n- [1](https://a.example/) a link',
    '### References\n- [x] done\n- [ ] to do',
    '### References\n- [1]a.md',
    // A heading and nothing under it.
    'Answer.\n\n### References\n\n',
  ];
  for (const text of ordinary) {
    assert.equal(referencesBlock(text), null, text);
    assert.notEqual(extractCitations(answer(text)).format, 'lightrag', text); // Jina's definitions are Jina's
  }
});

test("a references list inside a code block is code, not the answer's sources", () => {
  for (const fence of ['```', '~~~', '````md']) {
    const text = `Here is the format LightRAG uses:\n\n${fence}\n### References\n- [1] a.md\n- [2] b.md`;
    assert.equal(referencesBlock(text), null, fence);
  }
  // A fence closed before the list leaves the list outside it; one closed by a shorter or other fence does not.
  assert.ok(referencesBlock('```\ncode\n```\n\n### References\n- [1] a.md'));
  assert.equal(referencesBlock('````\ncode\n```\n### References\n- [1] a.md'), null);
  assert.equal(referencesBlock('```\ncode\n~~~\n### References\n- [1] a.md'), null);
  assert.equal(referencesBlock('```\ncode\n``` not closing\n### References\n- [1] a.md'), null);
});

test('the last list is read: one earlier in the answer is not its references', () => {
  const block = referencesBlock('### References\n- [1] old.md\n\nMore.\n\n### References\n- [2] new.md')!;
  assert.deepEqual(
    block.references.map((r) => r.title),
    ['new.md'],
  );
});

test('as sources: documents numbered as cited, entities and relations of the graph, a web address as a link', () => {
  const { format, citations } = extractCitations(
    answer(
      'Text [2].\n\n### References\n- [1] a.md\n- [2] https://kb.example/page\n- [3] a.md\n- [KG] Puppy\n- [DC] Puppy',
    ),
  );
  assert.equal(format, 'lightrag');
  assert.deepEqual(
    citations.map((c) => [c.index, c.id, c.title, c.url, c.kind, c.refs]),
    [
      [1, 'a.md', 'a.md', null, 'document', [1, 3]],
      [2, 'https://kb.example/page', 'https://kb.example/page', 'https://kb.example/page', 'document', [2]],
      [3, '[KG] Puppy', 'Puppy', null, 'graph', []],
      [4, 'Puppy', 'Puppy', null, 'document', []],
    ],
  );
  // Only web addresses are links: a path or a script URL is a title.
  const [path, script] = extractCitations(
    answer('### References\n- [1] /data/a.md\n- [2] javascript:alert(1)'),
  ).citations;
  assert.equal(path!.url, null);
  assert.equal(script!.url, null);
  assert.equal(script!.title, 'javascript:alert(1)');
});

test('the list is hidden under its heading once our list shows its sources, its own "[n]" with it', () => {
  const text = 'Vaccinate early [1], walk daily [2][1].\n\n### References\n\n- [1] a.md\n- [2] b.md\n';
  const { citations } = extractCitations(answer(text));
  const spans = linkMarkers(text, citations);
  assert.deepEqual(
    spans.map((s) => [text.slice(s.start, s.end), s.indices, s.kind, s.heading]),
    [
      ['[1]', [1], 'marker', undefined],
      ['[2]', [2], 'marker', undefined],
      ['[1]', [1], 'marker', undefined],
      [text.slice(text.indexOf('### References')), [1, 2], 'hide', 'References'],
    ],
  );
  assert.deepEqual(splitCited(text, citations, spans).retrieved, []);
  // Sources that are not the list's (Open WebUI's own, named otherwise): the list stays, as text.
  assert.ok(linkMarkers(text, [citation(1), citation(2)]).every((s) => s.kind === 'marker'));
});
