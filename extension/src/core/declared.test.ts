import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

import {
  DECLARATIONS_KEY,
  declarationsByModel,
  declarationsText,
  parseDeclarations,
  parsePath,
  validateDeclarations,
  withDeclaration,
} from './declared.js';
import { builtInDeclarationProblems } from './declared-read.js';
import { extractCitations } from './extract.js';
import { FORMATS } from './formats/index.js';
import { MAX_CITATIONS } from './limits.js';
import { linkMarkers } from './markers.js';

interface Examples {
  good: Array<{ name: string; json: unknown }>;
  bad: Array<{ name: string; json: unknown; errors: string[] }>;
}
const examples: Examples = JSON.parse(readFileSync(new URL('./fixtures/declarations.json', import.meta.url), 'utf8'));

/** One valid declaration, from its JSON. */
const declared = (backend: Record<string, unknown>) => {
  const { backends, errors } = validateDeclarations({ backends: [backend] });
  assert.deepEqual(errors, []);
  return backends[0]!;
};

test('good declarations validate, and are written back as the same JSON', () => {
  for (const { name, json } of examples.good) {
    const { backends, errors } = validateDeclarations(json);
    assert.deepEqual(errors, [], name);
    const again = validateDeclarations(JSON.parse(declarationsText(backends)));
    assert.deepEqual(again.errors, [], name);
    assert.deepEqual(
      again.backends.map((b) => b.json),
      backends.map((b) => b.json),
      name,
    );
  }
});

test('each kind of bad declaration: one clear error per problem, naming the backend and the field, nothing applied', () => {
  for (const { name, json, errors } of examples.bad) {
    const result = validateDeclarations(json);
    assert.deepEqual(result.errors, errors, name);
    // A backend with an error is never applied, even when others are.
    for (const backend of result.backends)
      assert.ok(!errors.some((e) => e.includes(`(${JSON.stringify(backend.models[0])})`)), name);
  }
});

test('attack: a prototype key never reaches an object: JSON text with "__proto__" is refused, not assigned', () => {
  const text =
    '{"backends": [{"models": ["m"], "sources": {"path": "r"}, "fields": {"title": "t", "url": "u", "__proto__": "polluted"}}]}';
  const { backends, errors } = parseDeclarations(text);
  assert.equal(backends.length, 0);
  assert.match(errors[0]!, /fields: unknown key "__proto__"/);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('attack: caps on backends, models, text, errors', () => {
  const backend = { models: ['m'], sources: { text: { separator: true } } };
  const many = { backends: Array.from({ length: 51 }, (_, i) => ({ ...backend, models: [`m${i}`] })) };
  assert.deepEqual(validateDeclarations(many).errors, ['backends: more than 50']);
  const models = { backends: [{ ...backend, models: Array.from({ length: 21 }, (_, i) => `m${i}`) }] };
  assert.deepEqual(validateDeclarations(models).errors, ['backends[0] ("m0"): models: more than 20']);
  assert.deepEqual(parseDeclarations(' '.repeat(100_001)).errors, ['longer than 100000 characters']);
  const bad = { backends: Array.from({ length: 50 }, () => ({ models: [] })) };
  const errors = validateDeclarations(bad).errors;
  assert.equal(errors.length, 51);
  assert.equal(errors.at(-1), '… and 50 more');
});

test('attack: deep nesting and huge values cost one error and no recursion', () => {
  const deep = `{"backends": [{"models": ["m"], "sources": {"text": {"separator": true}}, "x": ${'['.repeat(5000)}${']'.repeat(5000)}}]}`;
  assert.deepEqual(parseDeclarations(deep).errors, ['backends[0] ("m"): unknown key "x"']);
  assert.match(parseDeclarations('{"backends": [').errors[0]!, /^not JSON: /);
  assert.deepEqual(parseDeclarations(null).errors, ['must be JSON text']);
  // A path of 200 characters with 100 steps is read in one pass.
  const long = Array.from({ length: 100 }, () => 'a')
    .join('.')
    .slice(0, 199);
  assert.equal(typeof parsePath(long), 'object');
  assert.equal(parsePath('a'.repeat(201)), 'longer than 200 characters');
});

test('the browser declares a model the admin declares too: the browser wins for that model only', () => {
  const admin = validateDeclarations({
    backends: [{ models: ['a', 'b'], sources: { text: { heading: 'Sources' } } }],
  }).backends;
  const browser = validateDeclarations({
    backends: [{ models: ['b'], sources: { text: { separator: true } } }],
  }).backends;
  const byModel = declarationsByModel(admin, browser);
  assert.equal(byModel.get('a')?.sources.kind, 'heading');
  assert.equal(byModel.get('b')?.sources.kind, 'separator');
  assert.equal(DECLARATIONS_KEY, 'owui-citations:backends');
});

test('a declaration saved for a model replaces what the list said of that model, and the list stays valid', () => {
  const list = validateDeclarations({
    backends: [
      { models: ['a', 'b'], sources: { text: { heading: 'Sources' } } },
      { models: ['c'], sources: { text: { separator: true } } },
    ],
  }).backends;
  const added = declared({ models: ['b', 'c'], sources: { path: 'refs' }, fields: { title: 't', url: 'u' } });
  const saved = withDeclaration(list, added);
  assert.deepEqual(
    saved.map((b) => b.json.models),
    [['a'], ['b', 'c']],
  );
  const again = parseDeclarations(declarationsText(saved));
  assert.deepEqual(again.errors, []);
  assert.equal(declarationsByModel([], again.backends).get('c')?.sources.kind, 'path');
});

const myRag = () =>
  declared({
    models: ['my-rag'],
    sources: { path: 'choices[0].message.kb_hits' },
    fields: { title: 'doc.caption', url: 'doc.at', text: 'excerpt', page: 'pg', score: 'rel', number: 'n' },
    markers: 'brackets',
  });

test('a path no format reads: every field at its relative path, numbered by the number field, markers linked', () => {
  const body = {
    choices: [
      {
        message: {
          content: 'Dogs sleep a lot [7] and eat twice a day [9].',
          kb_hits: [
            {
              n: 7,
              doc: { caption: 'Sleep', at: 'https://dogs.example/sleep' },
              excerpt: 'Dogs sleep 12 hours.',
              pg: 3,
              rel: 0.9,
            },
            { n: 9, doc: { caption: 'Food', at: 'https://dogs.example/food' }, excerpt: 'Twice a day.' },
          ],
        },
      },
    ],
  };
  assert.equal(extractCitations(body).citations.length, 0, 'no built-in format reads it');
  const result = extractCitations(body, { declared: myRag() });
  assert.equal(result.format, 'declared');
  assert.equal(result.field, 'choices[0].message.kb_hits');
  assert.equal(result.notation, 'brackets');
  assert.deepEqual(
    result.citations.map((c) => [c.index, c.title, c.url, c.snippet, c.page, c.score, c.refs]),
    [
      [1, 'Sleep', 'https://dogs.example/sleep', 'Dogs sleep 12 hours.', 3, 0.9, [7]],
      [2, 'Food', 'https://dogs.example/food', 'Twice a day.', null, null, [9]],
    ],
  );
  const text = body.choices[0]!.message.content;
  assert.deepEqual(
    linkMarkers(text, result.citations).map((s) => [text.slice(s.start, s.end), s.indices]),
    [
      ['[7]', [1]],
      ['[9]', [2]],
    ],
  );
});

test('a streamed chunk: the delta path is read in the merged stream; numbered from the base when items have no number', () => {
  const backend = declared({
    models: ['m'],
    sources: { path: 'choices[0].delta.refs' },
    fields: { title: 'name', url: 'href' },
    numbering: 0,
  });
  const chunks = [
    { choices: [{ delta: { content: 'A [0] and B [1].' } }] },
    {
      choices: [
        {
          delta: {
            refs: [
              { name: 'A', href: 'https://a.example/' },
              { name: 'B', href: 'https://b.example/' },
            ],
          },
        },
      ],
    },
  ];
  const result = extractCitations(chunks, { declared: backend });
  assert.deepEqual(
    result.citations.map((c) => [c.title, c.refs]),
    [
      ['A', [0]],
      ['B', [1]],
    ],
  );
});

test('attack: a non-http link is dropped (urls.ts), the source kept by its title; prototype fields are not read', () => {
  const backend = declared({ models: ['m'], sources: { path: 'refs' }, fields: { title: 'title', url: 'url' } });
  const body = JSON.parse(
    '{"refs": [{"title": "Evil", "url": "javascript:alert(1)"}, {"title": "Data", "url": "data:text/html,x"}, {"url": "https://ok.example/"}]}',
  );
  const citations = extractCitations(body, { declared: backend }).citations;
  assert.deepEqual(
    citations.map((c) => [c.title, c.url]),
    [
      ['Evil', null],
      ['Data', null],
      ['ok.example', 'https://ok.example/'],
    ],
  );
  // A path's names are own fields only: a field another script put on Object.prototype is no title.
  Object.defineProperty(Object.prototype, 'injected', { value: 'Injected', configurable: true });
  try {
    const inherited = declared({ models: ['m'], sources: { path: 'refs' }, fields: { title: 'injected', text: 'x' } });
    assert.equal(extractCitations({ refs: [{}] }, { declared: inherited }).citations.length, 0);
  } finally {
    delete (Object.prototype as Record<string, unknown>).injected;
  }
});

test('a declaration that finds nothing leaves the built-in formats to read the payload', () => {
  const body = { citations: ['https://a.example/'], choices: [{ message: { content: 'x [1]' } }] };
  const plain = extractCitations(body);
  const withDeclaration = extractCitations(body, { declared: myRag() });
  assert.equal(withDeclaration.format, plain.format);
  assert.ok(plain.citations.length > 0);
});

const answer = (content: string) => ({ choices: [{ message: { role: 'assistant', content } }] });

test('a list in the text under its heading: each line kind, numbered as written or from the base', () => {
  const backend = declared({ models: ['w'], sources: { text: { heading: 'Sources' } }, markers: 'linked-number' });
  const text = [
    'Dogs dream [1] and cats purr [2].',
    '',
    '**Sources:**',
    '[1] Dog dreams https://a.example/dreams',
    '2. [Cat purring](https://b.example/purr)',
    '- [Birds](https://c.example/)',
    'https://d.example/bare',
    '',
    'Ask me more.',
  ].join('\n');
  const result = extractCitations(answer(text), { declared: backend });
  assert.equal(result.field, 'text under "Sources"');
  assert.deepEqual(
    result.citations.map((c) => [c.title, c.url, c.refs]),
    [
      ['Dog dreams', 'https://a.example/dreams', [1]],
      ['Cat purring', 'https://b.example/purr', [2]],
      ['Birds', 'https://c.example/', [3]],
      ['d.example/bare', 'https://d.example/bare', [4]],
    ],
  );
});

test('after a --- line, 0-based; a heading elsewhere or none reads nothing', () => {
  const separated = declared({ models: ['s'], sources: { text: { separator: true } }, numbering: 0 });
  const text = 'Answer [0].\n\n---\n- [Zero](https://z.example/)\n- [One](https://o.example/)';
  assert.deepEqual(
    extractCitations(answer(text), { declared: separated }).citations.map((c) => [c.title, c.refs]),
    [
      ['Zero', [0]],
      ['One', [1]],
    ],
  );
  const headed = declared({ models: ['h'], sources: { text: { heading: 'Références' } } });
  assert.equal(extractCitations(answer('No list here.\n- [A](https://a.example/)'), { declared: headed }).format, null);
  assert.equal(
    extractCitations(answer('## RÉFÉRENCES\n- [A](javascript:alert(1))'), { declared: headed }).citations.length,
    0,
    'a line whose link is not http(s) is no item',
  );
});

test("a list in the text, read as any list: FreeAskInternet's emphasis-wrapped links, a title alone, a title and its address", () => {
  const headed = declared({ models: ['f'], sources: { text: { heading: '参考资料' } } });
  const text = [
    '屋顶绿化可以降温[1]。',
    '',
    '---',
    '参考资料:',
    '*[1. https://www.greenroofs-example.org/benefits](https://www.greenroofs-example.org/benefits)*',
    '*[2. https://zh.wikipedia.org/wiki/屋顶绿化](https://zh.wikipedia.org/wiki/屋顶绿化)*',
    '3. Handbook-2026.pdf',
    '4. Rhine - Wikipedia',
    '   https://en.wikipedia.org/wiki/Rhine',
  ].join('\n');
  assert.deepEqual(
    extractCitations(answer(text), { declared: headed }).citations.map((c) => [c.url, c.refs]),
    [
      ['https://www.greenroofs-example.org/benefits', [1]],
      ['https://zh.wikipedia.org/wiki/%E5%B1%8B%E9%A1%B6%E7%BB%BF%E5%8C%96', [2]],
      [null, [3]],
      ['https://en.wikipedia.org/wiki/Rhine', [4]],
    ],
  );
});

test('a list a text declaration reads is hidden from the visible text, its heading or separator with it', () => {
  const cases = [
    // A heading no reader knows as one naming sources: the declaration says it is.
    {
      sources: { text: { heading: 'Weiterlesen' } },
      list: '### Weiterlesen\n- [Rhein](https://de.wikipedia.org/wiki/Rhein)',
    },
    // After a separator, unnumbered: the declaration says so.
    { sources: { text: { separator: true } }, list: '---\n- [Rhein](https://de.wikipedia.org/wiki/Rhein)' },
  ];
  for (const { sources, list } of cases) {
    const text = `Der Rhein ist lang [1].\n\n${list}`;
    const { citations } = extractCitations(answer(text), { declared: declared({ models: ['d'], sources }) });
    assert.equal(citations.length, 1);
    const hidden = linkMarkers(text, citations).filter((s) => s.kind === 'hide' && s.block);
    assert.deepEqual(
      hidden.map((s) => text.slice(s.start, s.end)),
      [list],
      JSON.stringify(sources),
    );
  }
  // Read without the declaration, the same list is only a candidate, left in place.
  const text = 'Der Rhein ist lang [1].\n\n### Weiterlesen\n- [Rhein](https://de.wikipedia.org/wiki/Rhein)';
  const { citations } = extractCitations(answer(text));
  assert.deepEqual(
    linkMarkers(text, citations).filter((s) => s.block),
    [],
  );
});

test('attack: a long text list line by line, linear (a million characters read)', () => {
  const backend = declared({ models: ['s'], sources: { text: { separator: true } }, numbering: 0 });
  // Numbered [0] to [999]: a list's number has three digits at most ("[2024]" opening a line is a year).
  const line = (n: number) => `[${n}] ${'[1] '.repeat(20)}title ${'-'.repeat(1000)}`;
  const text = `x\n---\n${Array.from({ length: 1000 }, (_, i) => line(i)).join('\n')}`;
  const result = extractCitations(answer(text), { declared: backend });
  assert.equal(result.citations.length, 1000);
});

/** Qianfan's shape, declared for any model: a list whose items carry their number. */
const anyModel = () =>
  declared({ sources: { path: 'search_results' }, fields: { title: 'title', url: 'url', number: 'index' } });

test("attack: a declaration for any model claims only a list whose items carry its number, never every model's answers", () => {
  const backend = anyModel();
  // Perplexity's list at the same path, without numbers: not claimed, read by its own format.
  const perplexity = { ...answer('Rain [1].'), search_results: [{ title: 'Rain', url: 'https://r.example/' }] };
  assert.equal(extractCitations(perplexity, { anyModel: [backend] }).format, 'perplexity');
  // An answer without the list, or with numbers only as text or in nested objects: nothing.
  for (const body of [
    { ...answer('Plain [1].') },
    { ...answer('x'), search_results: [{ title: 'T', url: 'https://t.example/', index: 'one' }] },
    { ...answer('x'), search_results: [{ title: 'T', url: 'https://t.example/', index: 1.5 }] },
    { ...answer('x'), search_results: [[{ index: 1 }], 'index'] },
    { ...answer('x'), search_results: { index: 1, title: 'T', url: 'https://t.example/' } },
  ])
    assert.notEqual(extractCitations(body, { anyModel: [backend] }).format, 'declared', JSON.stringify(body));
});

test('for any model: items named by their numbers only; one without (or below the base) is listed, named by no marker', () => {
  const text = 'A [2] and B [1].';
  const body = {
    ...answer(text),
    search_results: [
      { index: 2, title: 'Two', url: 'https://e.example/2' },
      { title: 'None', url: 'https://e.example/none' },
      { index: 0, title: 'Zero', url: 'https://e.example/0' },
      { index: '1', title: 'One', url: 'https://e.example/1' },
    ],
  };
  const result = extractCitations(body, { anyModel: [anyModel()] });
  assert.equal(result.format, 'declared');
  assert.deepEqual(
    result.citations.map((c) => [c.title, c.refs]),
    [
      ['Two', [2]],
      ['None', []],
      ['Zero', []],
      ['One', [1]],
    ],
  );
  assert.deepEqual(
    linkMarkers(text, result.citations).map((s) => [text.slice(s.start, s.end), s.indices]),
    [
      ['[2]', [1]],
      ['[1]', [4]],
    ],
  );
  // The model's own declaration is read first.
  assert.equal(extractCitations(body, { declared: myRag(), anyModel: [anyModel()] }).format, 'declared');
});

test('a list longer than the core reads: the rest counted, as a format counts it', () => {
  const results = Array.from({ length: MAX_CITATIONS + 3 }, (_, i) => ({
    index: i + 1,
    title: `T${i}`,
    url: `https://e.example/${i}`,
  }));
  const result = extractCitations({ ...answer('x'), search_results: results }, { anyModel: [anyModel()] });
  assert.equal(result.citations.length, MAX_CITATIONS);
  assert.equal(result.omitted, 3);
});

test('attack: a list of a million items is drafted only up to the cap, the rest counted', () => {
  // Each item's score is read only when the item is drafted (a getter counts the reads).
  let scoresRead = 0;
  const item = (i: number) => ({
    index: i + 1,
    title: `T${i}`,
    get score() {
      scoresRead++;
      return 0.5;
    },
  });
  const results = Array.from({ length: 1_000_000 }, (_, i) => item(i));
  const backend = declared({
    sources: { path: 'search_results' },
    fields: { title: 'title', url: 'url', number: 'index', score: 'score' },
  });
  const result = extractCitations({ ...answer('x [1].'), search_results: results }, { anyModel: [backend] });
  assert.equal(result.citations.length, MAX_CITATIONS);
  assert.equal(result.omitted, 1_000_000 - MAX_CITATIONS);
  assert.equal(scoresRead, MAX_CITATIONS);
});

test("every built-in declaration (producers/*/declaration.json) is valid, one backend for any model, as the core checks an admin's", () => {
  const producers = new URL('../../../producers/', import.meta.url);
  const files = readdirSync(producers).filter((name) => existsSync(new URL(`${name}/declaration.json`, producers)));
  assert.ok(files.includes('qianfan'));
  for (const name of files) {
    const json: unknown = JSON.parse(readFileSync(new URL(`${name}/declaration.json`, producers), 'utf8'));
    assert.deepEqual(builtInDeclarationProblems(json).problems, [], name);
    assert.deepEqual(validateDeclarations(json).errors, [], name);
    assert.ok(
      FORMATS.some((format) => format.name === name),
      `${name} is registered in FORMATS`,
    );
  }
  assert.deepEqual(builtInDeclarationProblems({ backends: [{ ...myRag().json }] }).problems, [
    'must declare one backend, without "models": a built-in reads any model\'s answers',
  ]);
});
