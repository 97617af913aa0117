/**
 * "Find sources in this response": the lists an answer's response held, as declarations, each
 * previewing exactly what the declaration, saved, then reads as the hub reads it; from backends of
 * the corpus's build half (corpus/unnamed/build/), and from hostile payloads.
 */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { createAccumulator } from './accumulate.js';
import { type Candidate, findCandidates } from './candidates.js';
import { validateDeclarations } from './declared.js';
import { extractCitations } from './extract.js';

const BUILD = new URL('../../../corpus/unnamed/build/', import.meta.url);

/** A block scalar of a corpus file (`key: |` and its indented lines), as written. */
function block(backend: string, key: string): string {
  const lines = readFileSync(new URL(`${backend}.yaml`, BUILD), 'utf8').split('\n');
  const from = lines.indexOf(`${key}: |`);
  assert.ok(from >= 0, `${backend}: ${key}`);
  const body: string[] = [];
  for (const line of lines.slice(from + 1)) {
    if (line !== '' && !line.startsWith('  ')) break;
    body.push(line.slice(2));
  }
  return body.join('\n').trimEnd();
}

const titles = (candidate: Candidate | undefined) => candidate?.preview.map((source) => source.title);
const urls = (candidate: Candidate | undefined) => candidate?.preview.map((source) => source.url);

/** The response as capture keeps it: its payloads merged into one body (core/stream.ts). */
function merged(payloads: unknown[]) {
  const accumulator = createAccumulator();
  for (const payload of payloads) accumulator.add(payload);
  return accumulator.body();
}

/** Each candidate, saved for a model, is valid, and the hub reads what it previews: from the
 * payloads as they came (a list), or from the answer's text (a list in it). */
function assertFaithful(candidates: Candidate[], payloads: unknown[], answer: string): void {
  for (const { declaration, preview } of candidates) {
    const { backends, errors } = validateDeclarations({ backends: [{ models: ['my-model'], ...declaration }] });
    assert.deepEqual(errors, [], JSON.stringify(declaration));
    const declared = backends[0]!;
    let read: unknown[];
    if ('path' in declaration.sources) {
      const accumulator = createAccumulator({ declared });
      for (const payload of payloads) accumulator.add(payload);
      read = accumulator.result().citations;
    } else {
      read = extractCitations({ choices: [{ message: { content: answer } }] }, { declared }).citations;
    }
    assert.deepEqual(read, preview, JSON.stringify(declaration));
  }
}

test('PrivateGPT: the chunks beside the choice, titled by the file name two objects down, non-streamed and streamed', () => {
  const body = JSON.parse(block('privategpt', 'non_streamed'));
  const answer = block('privategpt', 'answer');
  const expected = ['Sales Report Q3 2023.pdf', 'Marketing Plan 2023.pdf', 'team-notes.txt'];
  const [best] = findCandidates(merged([body]), answer);
  assert.deepEqual(best?.declaration, {
    sources: { path: 'choices[0].sources' },
    fields: {
      title: 'document.doc_metadata.file_name',
      text: 'text',
      page: 'document.doc_metadata.page_label',
      score: 'score',
    },
    numbering: 1,
    markers: 'brackets',
  });
  assert.deepEqual(titles(best), expected);
  assert.deepEqual(
    best?.preview.map((source) => source.page),
    [2, 5, null],
  );
  // Streamed, each chunk repeats the whole list: read once. The direct connection's raw stream is one text.
  const stream = block('privategpt', 'streamed');
  const streamed = findCandidates(merged([stream]), answer);
  assert.deepEqual(titles(streamed[0]), expected);
  assertFaithful([best!], [body], answer);
  assertFaithful(streamed, [stream], answer);
});

test('lists in the text: under a bold heading, a markdown heading, and a heading after a separator line', () => {
  const cases = [
    {
      backend: 'higress-ai-search',
      heading: 'references',
      first: 'https://www.example-news.cn/world/2024-10/08/c_1130206.htm',
    },
    { backend: 'hayhooks', heading: 'all sources', first: 'https://docs.haystack.deepset.ai/docs/pipelines' },
    // Its items are links wrapped in emphasis, `*[1. url](url)*`.
    {
      backend: 'freeaskinternet',
      heading: '参考资料',
      first: 'https://www.greenroofs-example.org/benefits/temperature',
    },
  ];
  for (const { backend, heading, first } of cases) {
    const answer = block(backend, 'answer');
    const candidates = findCandidates(merged([]), answer);
    const best = candidates[0];
    assert.deepEqual(best?.declaration.sources, { text: { heading } }, backend);
    if (first) assert.equal(urls(best)?.[0], first, backend);
    assert.deepEqual(
      best?.preview.map((source) => source.refs),
      best?.preview.map((_, i) => [i + 1]),
      backend,
    );
    assertFaithful(candidates, [], answer);
  }
});

test('a list with links ranks above one of titles alone; an ordinary answer offers nothing', () => {
  const body = {
    choices: [{ message: { role: 'assistant', content: 'Paris [1].' } }],
    steps: [{ name: 'search', text: 'looked up Paris' }],
    refs: [
      { title: 'Paris', url: 'https://en.wikipedia.org/wiki/Paris' },
      { title: 'France', url: 'https://en.wikipedia.org/wiki/France' },
    ],
  };
  const candidates = findCandidates(merged([body]), 'Paris [1].');
  assert.deepEqual(
    candidates.map((c) => c.declaration.sources),
    [{ path: 'refs' }, { path: 'steps' }],
  );
  assert.deepEqual(findCandidates({ choices: [{ message: { content: 'Hello.' } }] }, 'Hello.\n\nThanks:'), []);
});

test('numbering and markers follow the answer: a cited 0 numbers from 0, superscripts are named', () => {
  const body = {
    docs: [
      { title: 'A', link: 'https://a.example/' },
      { title: 'B', link: 'https://b.example/' },
    ],
  };
  const [zero] = findCandidates(merged([body]), 'First [0], then [1].');
  assert.equal(zero?.declaration.numbering, 0);
  assert.deepEqual(
    zero?.preview.map((source) => source.refs),
    [[0], [1]],
  );
  const [superscript] = findCandidates(merged([body]), 'First¹, then².');
  assert.equal(superscript?.declaration.markers, 'superscript');
});

test('hostile: a deep payload, 10,000 lists, a huge text, and keys JavaScript gives a meaning to', () => {
  let deep: unknown = [{ title: 'bottom', url: 'https://deep.example/' }];
  for (let i = 0; i < 100_000; i++) deep = { next: deep };
  assert.deepEqual(findCandidates(merged([deep]), ''), []); // past the depth searched, and no stack overflow

  const lists = {
    results: Array.from({ length: 10_000 }, (_, i) => ({ refs: [{ title: `t${i}`, url: `https://x.example/${i}` }] })),
  };
  const many = findCandidates(merged([lists]), '');
  assert.ok(many.length <= 8, String(many.length));
  assertFaithful(many, [lists], '');

  const heading = `${'## Heading\n- item\n'.repeat(50_000)}`;
  const fromText = findCandidates(merged([]), heading);
  assert.equal(fromText.length, 1); // one heading name, one candidate
  assertFaithful(fromText, [], heading);

  const hostile = JSON.parse(
    '{"__proto__": [{"title": "p", "url": "https://p.example/"}], "constructor": [{"title": "c", "url": "https://c.example/"}],' +
      '"refs": [{"__proto__": {"title": "polluted"}, "title": "ok", "url": "https://ok.example/"}]}',
  );
  const found = findCandidates(merged([hostile]), '');
  assert.deepEqual(
    found.map((c) => c.declaration.sources),
    [{ path: 'refs' }],
  );
  assert.deepEqual(found[0]?.declaration.fields, { title: 'title', url: 'url' });
  assert.equal(({} as { title?: unknown }).title, undefined);
});
