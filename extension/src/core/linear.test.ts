/**
 * Linear time under adversarial input, for every entry point of the core. A hostile page, a
 * prompt-injected document or a hostile backend writes the answer and the payload: runs of blanks
 * and tabs, tens of thousands of code spans and markers, thousands of "Sources:" lines, thousands
 * of annotations on one URL, deep nesting. Each property builds such an input (its variant drawn
 * by fast-check) at a size n and at 2n, and checks that twice the input takes about twice the time.
 *
 * Why timing in a unit test, when the project keeps time out of its tests (a busy CI machine makes
 * milliseconds flaky): linearity is a claim about growth, so growth is all that is asserted here,
 * never a time. The input is doubled until one run is long enough to measure (MEASURABLE_MS; at
 * MAX_SIZE, a run is repeated instead), then the medians of SAMPLES interleaved runs at n and 2n are
 * compared: linear work gives about 2, quadratic 4, cubic 8. Up to MAX_RATIO passes, and a failed
 * comparison is measured again: a load spike does not come back ATTEMPTS times, a quadratic loop
 * does. LINEAR_RUNS sets the variants drawn per property (1 here, more by hand), after the attacks
 * a security review measured, which each property runs first.
 */

import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { test } from 'node:test';

import fc from 'fast-check';

import { citation } from '../../test-support/citation.js';
import {
  answerTags,
  bibliography,
  bibtex,
  type Citation,
  chatMarkdown,
  createAccumulator,
  cslJson,
  extractCitations,
  fileStem,
  linkMarkers,
  parseDeclarations,
  ris,
  sourceLink,
  sourcesMarkdown,
  splitCited,
  withSourcesAfterAnswers,
} from './index.js';

const MEASURABLE_MS = 20;
const MAX_SIZE = 1 << 20;
// Nesting deeper than this meets V8's own steps (JSON.parse of three 256k-deep lists takes 4 times
// as long as of 128k-deep ones): the engine's, not the core's, and far deeper than any recursion.
const DEEP = 1 << 15;
const SAMPLES = 5;
const MAX_RATIO = 3;
const ATTEMPTS = 3;
const RANDOM_RUNS = Number(process.env.LINEAR_RUNS ?? 1);
/** The attacks measured (security review 2026-11-25) first, then RANDOM_RUNS variants drawn. */
const runs = <T extends unknown[]>(examples: T[] = []): fc.Parameters<T> => ({
  examples,
  numRuns: examples.length + RANDOM_RUNS,
  endOnFailure: true, // shrinking would time every smaller case again
  includeErrorInReport: true,
  ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}),
});

const median = (times: number[]): number => [...times].sort((a, b) => a - b)[times.length >> 1]!;

function time(run: () => unknown, reps: number): number {
  const start = performance.now();
  for (let i = 0; i < reps; i++) run();
  return performance.now() - start;
}

/** `build(n)` makes the input of size n (not timed) and returns the call to time. */
type Build = (n: number) => () => unknown;

function growth(build: Build, from: number, maxSize: number): { n: number; reps: number; ratio: number } {
  let n = from;
  let run = build(n);
  run(); // compiled before it is timed
  let reps = 1;
  while (time(run, reps) < MEASURABLE_MS) {
    if (2 * n <= maxSize) {
      n *= 2;
      run = build(n);
      run();
    } else reps *= 2;
  }
  const twice = build(2 * n);
  twice();
  const once: number[] = [];
  const double: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    once.push(time(run, reps));
    double.push(time(twice, reps));
  }
  return { n, reps, ratio: median(double) / median(once) };
}

function assertLinear(what: string, build: Build, { from = 16, maxSize = MAX_SIZE } = {}): void {
  const tried: string[] = [];
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const { n, reps, ratio } = growth(build, from, maxSize);
    if (ratio <= MAX_RATIO) return;
    tried.push(`n=${n}${reps > 1 ? ` ×${reps}` : ''}: ${ratio.toFixed(1)}×`);
  }
  assert.fail(`${what}: twice the input took more than ${MAX_RATIO}× the time (${tried.join(', ')})`);
}

/** Fresh each call: the core keeps results per list of citations (a WeakMap), which a repeated
 * run would otherwise read instead of doing the work. */
const numbered = (count: number, extra: (i: number) => Partial<Citation> = () => ({})): (() => Citation[]) => {
  const list = Array.from({ length: count }, (_, i) => citation(i + 1, extra(i + 1)));
  return () => list.map((c) => ({ ...c }));
};
const THREE = numbered(3, (i) => ({ url: `https://s.example/${i}` }));

const blankRun = fc.array(fc.constantFrom(' ', '\t'), { minLength: 1, maxLength: 3 }).map((blanks) => blanks.join(''));
const repeatTo = (unit: string, length: number): string => unit.repeat(Math.ceil(length / unit.length));

test('linkMarkers: a "Sources:" line with a long run of blanks, tabs or commas, failing at its end or not', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('Sources:', '[Sources]:', 'source :', ' [SOURCE]\t:', 'Sources: [', 'Sources: 1,'),
      fc.oneof(blankRun, fc.constantFrom(',', ', ', ',\t')),
      fc.constantFrom('x', '[', '(', '1x', ', x', '.x', ']]', '1]x', '\u2028x', '1', '2].'),
      (head, blanks, tail) => {
        assertLinear(`${JSON.stringify(head)} + blanks + ${JSON.stringify(tail)}`, (n) => {
          const text = `Answer [1].\n${head}${repeatTo(blanks, n)}${tail}\nMore [2].`;
          return () => linkMarkers(text, THREE());
        });
      },
    ),
    runs([
      ['Sources:', ' ', 'x'],
      ['[Sources]:', '\t', '['],
      ['Sources: 1,', ',', '1'],
    ]),
  );
});

test('linkMarkers: thousands of "Sources:" lines among thousands of markers', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('Sources: 1', '[Sources]: [1, 2].', 'source: 3', 'Sources: [1, 2] [3]', '  Sources :\t2 ,3'),
      fc.constantFrom('[1]', '[2, 3]', '[^1]', '【2】', '[doc3]', '[[1]](https://s.example/1)'),
      (line, marker) => {
        assertLinear(`lines ${JSON.stringify(line)}, markers ${marker}`, (n) => {
          const text = `${`Claim ${marker}.\n${line}\n`.repeat(n)}${`tail ${marker} `.repeat(n)}`;
          return () => linkMarkers(text, THREE());
        });
      },
    ),
    runs([['Sources: 1', '[1]']]),
  );
});

test('linkMarkers: tens of thousands of code spans and markers', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('`c` ', '`[1]` ', '```\n[2]\n``` ', '``x`` '),
      fc.constantFrom('[1] ', '[1, 2] ', '[^2] ', '【3】 ', '[doc1] ', '(ID: 1) ', '^[1][2]^ '),
      fc.boolean(),
      (code, marker, interleaved) => {
        assertLinear(`code ${JSON.stringify(code)}, markers ${marker}`, (n) => {
          const text = interleaved ? (code + marker).repeat(n) : code.repeat(n) + marker.repeat(n);
          return () => linkMarkers(text, THREE());
        });
      },
    ),
    runs([['`c` ', '[1] ', false]]),
  );
});

test('linkMarkers: Qianfan\'s caret before a long run of brackets that never closes, and runs of "^["', () => {
  // A caret tries its marker once, over at most 50 brackets: a run of 51 fails at its end.
  fc.assert(
    fc.property(
      fc.constantFrom('', '^', 'x^'),
      fc.constantFrom('[1]', '^[', '^[1]', '^[1][2]^', `^${'[1]'.repeat(51)}`, '[12345]'),
      fc.constantFrom('', '^', 'x'),
      (head, unit, tail) => {
        assertLinear(`${head} + ${JSON.stringify(unit.slice(0, 12))} + ${tail}`, (n) => {
          const text = head + unit.repeat(n) + tail;
          return () => linkMarkers(text, THREE());
        });
      },
    ),
    runs([
      ['^', '[1]', ''],
      ['', '^[', ''],
      ['', `^${'[1]'.repeat(51)}`, 'x'],
    ]),
  );
});

test('linkMarkers: labelled markers ([ref_n], [citation:n]) after long runs of "[", "[ref_", "【" and digits', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('[', '[ref_', '[citation:', '[cite: ', '【', '1', '[ref_1', '[citation:1, ', '[ref_1] '),
      fc.constantFrom('', ']', '1]', 'x'),
      (unit, tail) => {
        assertLinear(`${JSON.stringify(unit)} + ${JSON.stringify(tail)}`, (n) => {
          const text = `[ref_${unit.repeat(n)}${tail}`;
          return () => linkMarkers(text, THREE());
        });
      },
    ),
    runs([
      ['[ref_', '1]'],
      ['1', ']'],
      ['[citation:1, ', 'x'],
    ]),
  );
});

test('linkMarkers: thousands of anchors of one source over a long run of blanks', () => {
  // same: every anchor on one span; nested: each starts further into the blanks and ends at the
  // end (the blanks are skipped once per start); apart: each on a span of its own (each one is
  // inserted among all the others); backwards: the same, listed from the end of a text that is
  // not ASCII (the offsets are not UTF-16 and must not be counted from the start each time).
  fc.assert(
    fc.property(
      fc.constantFrom('same', 'nested', 'apart', 'backwards'),
      fc.constantFrom(' ', '\t', '\n', ' \u00a0'),
      (layout, blank) => {
        assertLinear(`${layout} anchors over ${JSON.stringify(blank)}`, (n) => {
          const unit = layout === 'backwards' ? 'codePoints' : 'utf16';
          const text =
            layout === 'apart' || layout === 'backwards'
              ? `${repeatTo(`${blank}w😀`, 3 * n)}.`
              : `${repeatTo(blank, 4 * n)}end [1].`;
          const at = (i: number) =>
            layout === 'same'
              ? { start: 0, end: text.length }
              : layout === 'nested'
                ? { start: i, end: text.length }
                : { start: 3 * i + 1, end: 3 * i + 2 };
          const order = Array.from({ length: n }, (_, i) => (layout === 'backwards' ? n - 1 - i : i));
          const anchors = order.map((i) => ({ ...at(i), unit }) as const);
          const citations = numbered(2, (i) => ({ anchors: i === 1 ? anchors : anchors.slice(0, 10) }));
          return () => linkMarkers(text, citations());
        });
      },
    ),
    runs([
      ['same', ' '],
      ['nested', ' '],
      ['apart', ' '],
      ['backwards', ' '],
    ]),
  );
});

test('linkMarkers: a footnote definition with a long run of blanks, and tens of thousands of definitions', () => {
  fc.assert(
    fc.property(blankRun, fc.constantFrom('\u2028', '\u2029', 'x\u2028', ''), fc.boolean(), (blanks, end, many) => {
      assertLinear(`footnotes, ${many ? 'many' : `blanks + ${JSON.stringify(end)}`}`, (n) => {
        const text = many
          ? `Fact[^1].\n${Array.from({ length: n }, (_, i) => `[^${(i % 999) + 1}]: q [t](https://s.example/${i % 3})`).join('\n')}`
          : `Fact[^1].\n\n[^1]:${repeatTo(blanks, n)}${end}`;
        return () => linkMarkers(text, THREE());
      });
    }),
    runs([[' ', '\u2028', false]]),
  );
});

/** Each layout of an answer's text, `build(n, blanks)`, read as a body's message and linked: first
 * with a run of spaces, or of tabs for the layouts `tabbed` names (the attacks measured). */
function answerLayoutsLinear(
  what: string,
  build: Record<string, (n: number, blanks: string) => string>,
  tabbed: readonly string[],
): void {
  const layouts = Object.keys(build);
  fc.assert(
    fc.property(fc.constantFrom(...layouts), blankRun, (layout, blanks) => {
      assertLinear(`${what}: ${layout}`, (n) => {
        const content = build[layout]!(n, blanks);
        const body = { choices: [{ index: 0, message: { role: 'assistant', content } }] };
        return () => linkMarkers(content, extractCitations(body).citations);
      });
    }),
    runs(layouts.map((layout) => [layout, tabbed.includes(layout) ? '\t' : ' '])),
  );
}

test("extractCitations then linkMarkers: LightRAG's references list of many lines, long lines, runs of blanks and fences", () => {
  // lines: thousands of references; wrapped: one title over thousands of lines; blanks: a title and a
  // heading padded with a long run; fences: thousands of code fences above the list; prose: one
  // paragraph of thousands of lines that no heading opens (read back to the start, then given up).
  answerLayoutsLinear(
    'references',
    {
      lines: (n) =>
        `A [1].\n\n### References\n${Array.from({ length: n }, (_, i) => `- [${(i % 999) + 1}] f${i}.md`).join('\n')}`,
      wrapped: (n) => `A [1].\n\n### References\n- [1] ${'part of a title\n'.repeat(n)}`,
      blanks: (n, blanks) => `A [1].\n\n### References${repeatTo(blanks, n)}\n- [1] a.md${repeatTo(blanks, n)}\nx`,
      fences: (n) => `${'```\ncode\n```\n'.repeat(n)}\n### References\n- [1] a.md`,
      prose: (n) => `${'A line of an answer that mentions its references [1].\n'.repeat(n)}`,
    },
    ['blanks'],
  );
});

test('extractCitations then linkMarkers: lists of sources in the text, of many lines, long lines and many lists', () => {
  // lines: thousands of items under a heading; loose: thousands of "检索 title - url" lines;
  // long: one item line of a long title of brackets and parentheses; lists: thousands of lists no
  // heading names, apart, none cited; records: thousands of Title:/Link: records.
  answerLayoutsLinear(
    'source lists',
    {
      lines: (n) =>
        `A [1].\n\n### Sources\n${Array.from({ length: n }, (_, i) => `- [${(i % 999) + 1}] https://s.example/${i}`).join('\n')}`,
      loose: (n, blanks) => `${`检索 t${blanks}- https://s.example/a${blanks}...\n`.repeat(n)}\nA.`,
      long: (n, blanks) => `A [1].\n\nSources:\n- [1] ${repeatTo(`([${blanks}](http`, n)}`,
      lists: (n) => `${'A [5].\n\n1. [x](https://s.example/1)\n\n'.repeat(n)}`,
      records: (n) => `Search results:\n\n${'Title: t\nLink: https://s.example/\n\n'.repeat(n)}`,
    },
    ['long'],
  );
});

test('extractCitations then linkMarkers and splitCited: thousands of annotations on one URL', () => {
  fc.assert(
    fc.property(fc.constantFrom('grok2api', 'openai'), fc.boolean(), (format, spaces) => {
      assertLinear(`${format}: annotations on one URL`, (n) => {
        const content = spaces ? `${' '.repeat(4 * n)}Claim [[1]](https://a.example/).` : 'Claim. '.repeat(n);
        const annotations = Array.from({ length: n }, (_, i) => ({
          type: 'url_citation',
          url_citation: {
            url: 'https://a.example/',
            title: 'A',
            start_index: i,
            end_index: spaces ? content.length : i + 3,
          },
        }));
        const body = {
          object: 'chat.completion',
          model: format === 'grok2api' ? 'grok-4' : 'gpt-4o-search-preview',
          choices: [{ index: 0, message: { role: 'assistant', content, annotations } }],
          ...(format === 'grok2api' ? { search_sources: [{ url: 'https://a.example/', title: 'A' }] } : {}),
        };
        return () => {
          const { citations } = extractCitations(body);
          splitCited(content, citations, linkMarkers(content, citations));
        };
      });
    }),
    runs([['grok2api', true]]),
  );
});

test('extractCitations: deep nesting, as objects and as JSON text, and long SSE streams', () => {
  fc.assert(
    fc.property(fc.constantFrom('arrays', 'objects', 'sse'), fc.boolean(), (shape, asText) => {
      assertLinear(
        `${shape} ${asText ? 'as text' : ''}`,
        (n) => {
          const deep =
            shape === 'arrays' ? `${'['.repeat(n)}${']'.repeat(n)}` : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
          const json = `{"choices":[{"message":{"content":"x [1]","annotations":${deep}}}],"sources":${deep},"extra":${JSON.stringify(deep)}}`;
          const sse = Array.from(
            { length: n },
            (_, i) =>
              `data: {"choices":[{"index":0,"delta":{"content":"w${i} "}}],"search_results":[{"url":"https://s.example/${i % 7}"}]}\n\n`,
          ).join('');
          const payload = shape === 'sse' ? sse : asText ? json : JSON.parse(json);
          return () => extractCitations(payload);
        },
        { maxSize: DEEP },
      );
    }),
    runs([
      ['arrays', true],
      ['objects', false],
    ]),
  );
});

test('extractCitations: the reader of last resort over wide payloads, source-like lists and JSON text', () => {
  // wide: fields everywhere it looks; lists: lists of sources each spoilt by its last item; text:
  // the same lists as JSON text; long: one list of sources as JSON text, longer than any read;
  // nested: lists whose items hold such lists; held: items whose document is in nested holders;
  // links: items named by an id, in an answer of link-like runs that fail late, and of links.
  const source = (i: number) => ({ url: `https://s.example/${i}`, title: 't', snippet: 's' });
  const spoilt = (i: number) => [source(i), source(i + 1), { id: i }];
  const held = (i: number) => ({ text: 't', document: { doc_metadata: { file_name: `${i}.pdf` }, metadata: {} } });
  const values: Record<string, (i: number) => unknown> = {
    wide: (i) => ({ a: { b: i } }),
    lists: spoilt,
    text: (i) => JSON.stringify(spoilt(i)),
    nested: (i) => [{ citations: spoilt(i) }, { citations: [source(i)], results: spoilt(i) }],
    held: (i) => [held(i), held(i + 1), { id: i }],
    links: (i) => [{ file_id: `id-${i}`, text: 't' }, { file_id: 'id-0', text: 't' }, { id: i }],
  };
  // One link that names an item, then runs of links that never close.
  const linkRuns = (n: number) =>
    `[x](id-0) ${Array.from({ length: n }, () => `[${'a'.repeat(50)} [a](${'b'.repeat(50)} `).join('')}`;
  fc.assert(
    fc.property(fc.constantFrom('wide', 'lists', 'text', 'long', 'nested', 'held', 'links'), (shape) => {
      assertLinear(shape, (n) => {
        const many = <T>(make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
        const value = values[shape] ?? values.wide!;
        const fields =
          shape === 'long'
            ? { hits: JSON.stringify(many(source)) }
            : Object.fromEntries(many((i) => [`k${i}`, value(i)]));
        const message = { role: 'assistant', content: shape === 'links' ? linkRuns(n) : 'x [1]', ...fields };
        const payload = { choices: [{ index: 0, message }], ...fields };
        return () => extractCitations(payload);
      });
    }),
    runs([['lists'], ['long'], ['nested'], ['held'], ['links']]),
  );
});

test('a declared backend: text lists of many or long lines, paths over long lists, declarations of many keys', () => {
  const declare = (backend: Record<string, unknown>) =>
    parseDeclarations(JSON.stringify({ backends: [backend] })).backends[0]!;
  const headed = declare({ models: ['m'], sources: { text: { heading: 'Sources' } } });
  const separated = declare({ models: ['m'], sources: { text: { separator: true } } });
  const atPath = declare({
    models: ['m'],
    sources: { path: 'r[0].hits' },
    fields: { title: 'a.b', url: 'u', number: 'n' },
  });
  const answer = (content: string) => ({ choices: [{ message: { role: 'assistant', content } }] });
  fc.assert(
    fc.property(
      fc.constantFrom(
        ' ',
        '-',
        '#',
        '[1] ',
        '](',
        '1. ',
        '- [t](https://a.example/)\n',
        '## Sources\n',
        '---\n',
        'https://a.example/ ',
      ),
      (unit) => {
        for (const [declared, head] of [
          [headed, '## Sources\n'],
          [separated, '---\n'],
        ] as const) {
          assertLinear(`${JSON.stringify(unit)} after ${JSON.stringify(head)}`, (n) => {
            const payload = answer(`x [1]\n${head}${repeatTo(unit, n)}\n[1] end https://e.example/`);
            return () => extractCitations(payload, { declared });
          });
        }
      },
    ),
    runs([['---\n'], ['[1] '], ['## Sources\n']]),
  );
  assertLinear('a path over a long list', (n) => {
    const hits = Array.from({ length: n }, (_, i) => ({ a: { b: `t${i}` }, u: `https://s.example/${i}`, n: i }));
    const payload = { r: [{ hits }] };
    return () => extractCitations(payload, { declared: atPath });
  });
  // Parsing stops at the cap on a declarations text: what grows is bounded.
  assertLinear(
    'declarations of many unknown keys and long paths',
    (n) => {
      const keys = Array.from({ length: n }, (_, i) => `"k${i}": "${'a.'.repeat(100)}"`).join(', ');
      const text = `{"backends": [{"models": ["m"], "sources": {"path": "${'a.'.repeat(150)}"}, ${keys}}]}`;
      return () => parseDeclarations(text);
    },
    { maxSize: 1 << 14 },
  );
});

test('text lists of titles alone: thousands of "Sources:" lists of titles, long title lines of commas, dashes and parentheses', () => {
  const answer = (content: string) => ({ choices: [{ message: { role: 'assistant', content } }] });
  // A declared list's title is of any length: what a page after it reads runs over all of it.
  const declared = parseDeclarations(
    JSON.stringify({ backends: [{ models: ['m'], sources: { text: { heading: 'Sources' } } }] }),
  ).backends[0]!;
  fc.assert(
    fc.property(
      fc.constantFrom(
        'Sources:\n1. a title [1]\n2. b.pdf (p. 1\n\n',
        'References:\n- t, p. 1, p. 2 - page 3 (S. 4) (\n',
        ', p. ',
        ' - ',
        '(',
        '第1页',
      ),
      (unit) => {
        for (const options of [{}, { declared }]) {
          assertLinear(`${JSON.stringify(unit)}, ${Object.keys(options)}`, (n) => {
            const content = `x [1]\n\nSources:\n1. ${repeatTo(unit, n)}\n2. b.docx`;
            const payload = answer(content);
            return () => {
              const found = extractCitations(payload, options);
              linkMarkers(content, found.citations);
            };
          });
        }
      },
    ),
    runs([['Sources:\n1. a title [1]\n2. b.pdf (p. 1\n\n'], [', p. ']]),
  );
});

test('createAccumulator: thousands of chunks of per-item updates, provider fields, annotations, text read after each', () => {
  fc.assert(
    fc.property(fc.constantFrom('executed_tools', 'provider fields', 'annotations', 'text'), (kind) => {
      assertLinear(`chunks of ${kind}`, (n) => {
        const chunks = Array.from({ length: n }, (_, i) => ({
          object: 'chat.completion.chunk',
          choices: [
            {
              index: 0,
              delta: {
                content: `w${i} `,
                ...(kind === 'executed_tools'
                  ? { executed_tools: [{ index: i, type: 'search', search_results: { results: [] } }] }
                  : kind === 'provider fields'
                    ? { provider_specific_fields: { [`field${i}`]: i } }
                    : kind === 'annotations'
                      ? {
                          annotations: [
                            {
                              type: 'url_citation',
                              url_citation: { url: 'https://a.example/', start_index: i, end_index: i + 1 },
                            },
                          ],
                        }
                      : {}),
              },
            },
          ],
        }));
        return () => {
          const accumulator = createAccumulator();
          for (const chunk of chunks) {
            accumulator.add(chunk);
            if (kind === 'text') accumulator.text(); // as the page reads it, to add only what is new
          }
          return accumulator.result();
        };
      });
    }),
    runs([['executed_tools'], ['provider fields'], ['text']]),
  );
});

test('splitCited: thousands of links, hidden "Sources:" lines and citation tags', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('[A](https://s.example/1) ', '<citation>{"number": 2}</citation> ', '<usage>', '](<x'),
      (piece) => {
        assertLinear(`pieces ${JSON.stringify(piece)}`, (n) => {
          const text = `${`${piece}\nSources: 1\n`.repeat(n)}[3]`;
          return () => splitCited(text, THREE());
        });
      },
    ),
    runs([['[A](https://s.example/1) ']]),
  );
});

test('answerTags: tens of thousands of tags, closed and not', () => {
  fc.assert(
    fc.property(fc.constantFrom('<citation>{}</citation>', '<citation>', '<usage>{"a":1}</usage><', '</'), (tag) => {
      assertLinear(`tags ${JSON.stringify(tag)}`, (n) => {
        const text = `${tag}x`.repeat(n);
        return () => answerTags(text);
      });
    }),
    runs([['<citation>{}</citation>']]),
  );
});

test('sourcesMarkdown: titles of long runs of blanks and markdown', () => {
  fc.assert(
    fc.property(fc.constantFrom(' ', ' \t\n', '*_[', '\\'), (run) => {
      assertLinear(`titles of ${JSON.stringify(run)}`, (n) => {
        const citations = numbered(50, (i) => ({
          title: `T${i}${repeatTo(run, n)}x`,
          url: `https://s.example/(${i})`,
        }));
        const options = { heading: 'Sources', page: () => null, link: (c: Citation) => c.url };
        return () => sourcesMarkdown(citations(), options);
      });
    }),
    runs([[' \t\n']]),
  );
});

test('sourceLink: snippets with long runs of blanks and quote marks inside the part it reads', () => {
  // The link reads at most 2,000 characters of a snippet: the runs grow up to that, and each call
  // is made for 200 sources, as the page makes it for an answer's list.
  fc.assert(
    fc.property(fc.constantFrom(' ', '.', '…', '"', ' .'), (run) => {
      assertLinear(
        `snippets of ${JSON.stringify(run)}`,
        (n) => {
          const snippet = `x${repeatTo(run, n)}x`;
          const sources = Array.from({ length: 200 }, (_, i) => ({
            url: `https://s.example/${i}`,
            page: null,
            quote: null,
            snippet,
          }));
          return () => sources.map(sourceLink);
        },
        { maxSize: 990 },
      );
    }),
    runs([['.']]),
  );
});

test('extractCitations: a source without a title whose URL ends in a long run of slashes', () => {
  assertLinear(
    'URL slashes',
    (n) => {
      const body = { search_results: [{ url: `https://a.example/x${'/'.repeat(n)}y` }] };
      return () => extractCitations(body);
    },
    { maxSize: 4_000 },
  );
});

const EXPORT_WORDS = {
  answer: (n: number) => `Answer ${n}`,
  sources: 'Sources',
  retrieved: 'Retrieved',
  page: () => null,
  link: (c: Citation) => c.url,
};

test('chatMarkdown: long runs of blanks before markers, footnotes and links, in one answer or many', () => {
  // The security review's attack (2026-11-27, F3): "Claim" + 200,000 blanks + "x [1]" took 42 s.
  fc.assert(
    fc.property(
      blankRun,
      fc.constantFrom('x [1]', '[1]', '[1, 2]', '[^1]', '[[1]](https://s.example/1)', 'x', '\u2028[2]'),
      fc.constantFrom('one run', 'many runs', 'many answers'),
      (blanks, tail, layout) => {
        assertLinear(`${layout} of ${JSON.stringify(blanks)} + ${JSON.stringify(tail)}`, (n) => {
          const text =
            layout === 'one run'
              ? `Claim${repeatTo(blanks, n)}${tail}`
              : `Claim${repeatTo(blanks, 8)}${tail}`.repeat(Math.ceil(n / 8));
          const answers = Array.from({ length: layout === 'many answers' ? Math.ceil(n / 64) : 1 }, () => ({
            question: `Q${blanks}?`,
            text: layout === 'many answers' ? text.slice(0, 64) : text,
            citations: THREE(),
          }));
          return () => chatMarkdown('Chat', answers, EXPORT_WORDS);
        });
      },
    ),
    runs([
      [' ', 'x [1]', 'one run'],
      ['\t', '[^1]', 'many runs'],
    ]),
  );
});

test("chatMarkdown: footnote syntax, backslashes, fence and HTML lines in a question's or answer's text", () => {
  // The whole-text pass that keeps every footnote the export's own (chatText): "[" looks past
  // blanks for a "^", backslashes are counted, each line is read for fences and HTML blocks.
  fc.assert(
    fc.property(
      fc.constantFrom(
        '[',
        '[ \t\n',
        '[^',
        '^[',
        '\\',
        '\\[^1]',
        '```\n',
        '```\n[^1]: x\n',
        '  ```\nout\n',
        '<!--\n```\n',
        '`'.repeat(9),
        '[1]: ',
        '[1](',
      ),
      fc.constantFrom('one line', 'many lines'),
      (unit, layout) => {
        assertLinear(`${layout} of ${JSON.stringify(unit)}`, (n) => {
          const run = repeatTo(unit, n);
          const text = layout === 'one line' ? `Claim [1] ${run} [2]` : `${run}\n`.repeat(4).concat('x [1]');
          const answers = [{ question: run, text, citations: THREE() }];
          return () => chatMarkdown('Chat', answers, EXPORT_WORDS);
        });
      },
    ),
    runs([
      ['[ \t\n', 'one line'],
      ['  ```\nout\n', 'many lines'],
    ]),
  );
});

test('bibliography, bibtex, ris and cslJson: many sources, and long fields of braces, backslashes, blanks and line breaks', () => {
  // many: thousands of sources of short crafted fields; long: a few sources whose every field is a
  // long run of the unit (a title, a date, a snippet, a quote, a file name).
  const writers = { bibtex, ris, cslJson };
  fc.assert(
    fc.property(
      fc.constantFrom(...(Object.keys(writers) as (keyof typeof writers)[])),
      fc.constantFrom('{', '}', '\\', '} ', ' \t\n', '\u2028\u0085\r', '2024T},', '-', '%0D%0A', '😀{'),
      fc.constantFrom('many', 'long'),
      (writer, unit, layout) => {
        assertLinear(`${writer}: ${layout} of ${JSON.stringify(unit)}`, (n) => {
          const length = layout === 'many' ? 8 : n;
          const field = repeatTo(unit, length);
          const citations = numbered(layout === 'many' ? n : 4, (i) => ({
            title: `T${field}`,
            url: i % 2 ? `https://s.example/${i}?q=${field}` : `/files/${i}/${field}`,
            date: `2024${field}`,
            snippet: field,
            quote: { text: field, start: null, end: null, verbatim: null },
            page: i,
            pageEnd: i + 2,
          }));
          const day = new Date('2026-11-27T10:00:00Z');
          const absolute = (url: string) => new URL(url, 'https://owui.example/c/1').href;
          return () =>
            writers[writer](bibliography([{ question: null, text: '', citations: citations() }], absolute), day);
        });
      },
    ),
    runs([
      ['bibtex', '} ', 'long'],
      ['ris', '%0D%0A', 'many'],
      ['cslJson', '\u2028\u0085\r', 'long'],
    ]),
  );
});

test('fileStem: titles of long runs of blanks, dots, controls, bidi marks and emoji', () => {
  fc.assert(
    fc.property(fc.constantFrom(' ', '.', ' .', '\u0000', '\u202e', '😀', '\ud83d', '/:*'), (unit) => {
      assertLinear(`title of ${JSON.stringify(unit)}`, (n) => {
        const title = `${repeatTo(unit, n)}x${repeatTo(unit, n)}`;
        return () => fileStem(title);
      });
    }),
    runs([[' .']]),
  );
});

test("withSourcesAfterAnswers: Open WebUI's text download with long runs of message headers, answers made of them", () => {
  // The security review's attack: an answer's search went over every place its text occurs.
  fc.assert(
    fc.property(
      fc.constantFrom('### ASSISTANT\n', '### ASSISTANT\n\n', '\n\n### ASSISTANT\nx', '### USER\n\n### ASSISTANT\n'),
      fc.integer({ min: 1, max: 100 }),
      (unit, count) => {
        assertLinear(`runs of ${JSON.stringify(unit)}, ${count} answers`, (n) => {
          const run = unit.repeat(n);
          const file = `### USER\n${run}x\n\n### ASSISTANT\n${run}\n\n### ASSISTANT\nlast`;
          const answers = Array.from({ length: count }, (_, i) => ({
            text: i % 2 ? unit.repeat(n >> 1) : `${run}${i}`,
            citations: THREE(),
          }));
          return () => withSourcesAfterAnswers(file, answers, () => 'Sources');
        });
      },
    ),
    runs([['### ASSISTANT\n', 100]]),
  );
});
