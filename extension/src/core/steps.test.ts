/**
 * The core's whole-text passes in steps (steps.ts): run in steps of any budget, one unit
 * included, resumed in turn with other passes over other texts, they give what the whole call
 * gives, on any text and on the security review's kinds of answer; and a long text is read in
 * many steps, not one. FC_RUNS sets the cases per property, as in properties.test.ts.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { citation } from '../../test-support/citation.js';
import { markerText } from '../../test-support/hostile.js';
import { anyPayload } from '../../test-support/wire-formats.js';
import { extractCitationSteps, extractCitations } from './extract.js';
import { generic, genericSteps } from './formats/generic.js';
import { textList, textListSteps } from './formats/text-list.js';
import { isObject } from './json.js';
import { linkMarkerSteps, linkMarkers } from './markers.js';
import type { Citation, OffsetUnit } from './model.js';
import { toUtf16, toUtf16Steps } from './offsets.js';
import { type Steps, stepBudget } from './steps.js';

const RUNS = {
  numRuns: Math.ceil(Number(process.env.FC_RUNS ?? 2_000) / 4),
  includeErrorInReport: true,
  ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}),
};

/** Runs steps to their end, counting the steps. */
function stepped<T>(steps: Steps<T>): { value: T; steps: number } {
  for (let count = 1; ; count++) {
    const next = steps.next();
    if (next.done) return { value: next.value, steps: count };
  }
}

/** Runs several passes at once, a step of each in turn: their results, in order. */
function inTurn<T>(passes: Steps<T>[]): T[] {
  const results: T[] = [];
  const left = new Set(passes.keys());
  while (left.size) {
    for (const i of [...left]) {
      const next = passes[i]!.next();
      if (next.done) {
        results[i] = next.value;
        left.delete(i);
      }
    }
  }
  return results;
}

/** An offset in `unit` as UTF-16, counted from the start of the text: what toUtf16 must find. */
function counted(text: string, offset: number, unit: OffsetUnit): number | null {
  if (unit === 'utf16') return offset <= text.length ? offset : null;
  let units = 0;
  let index = 0;
  for (const character of text) {
    if (units >= offset) break;
    const code = character.codePointAt(0)!;
    units += unit === 'codePoints' ? 1 : code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    index += character.length;
  }
  return units === offset ? index : null;
}

const stepUnits = fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 64 }), fc.integer({ min: 65, max: 5_000 }));
const UNITS: OffsetUnit[] = ['utf16', 'codePoints', 'utf8'];
const URLS = ['https://e.example/a', 'https://e.example/b', 'https://e.example/c'];

// What the security review crafted and every way of listing sources in the text, between
// markers, code, non-ASCII characters (whose offsets differ by unit) and hostile text.
const piece = fc.oneof(
  { weight: 3, arbitrary: markerText },
  fc.constantFrom(
    '\nSources:\n1. [A](https://e.example/a)\n2. [B](https://e.example/b)\n',
    '\n**References:**\n- [1] https://e.example/c\n',
    `\nSources:${' '.repeat(300)}\n`,
    '\nSources: [1, 2]\n'.repeat(40),
    '\n[^1]: q [A](https://e.example/a)\n\n[^2]: r [B](https://e.example/b)',
    `\n[^1]:${' '.repeat(500)}`,
    '\nTitle: C\nLink: https://e.example/c\nSnippet: s\n',
    '\n<details>\n<summary>Searched the web</summary>\n\n1. [A](https://e.example/a)\n</details>\n',
    '\n---\n[1] [A](https://e.example/a)\n[2] [B](https://e.example/b)\n',
    '\nSources:\n1. handbook.pdf (p. 12)\n',
    '[Handbook.pdf](doc-7)',
    '`[1]` and `[2]`'.repeat(50),
    '```\n[1]\n```\n',
    'é😀\ud800 ',
    '[1][2][3] '.repeat(100),
  ),
);
const answerText = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));

const anchor = fc.record({
  start: fc.oneof(fc.nat(400), fc.constant(-1)),
  end: fc.oneof(fc.nat(400), fc.constant(Number.MAX_SAFE_INTEGER)),
  unit: fc.constantFrom(...UNITS),
});
const citations: fc.Arbitrary<Citation[]> = fc
  .array(
    fc.record({
      url: fc.constantFrom(null, ...URLS),
      id: fc.constantFrom(undefined, 'doc-7'),
      title: fc.constantFrom(undefined, 'handbook.pdf'),
      anchors: fc.array(anchor, { maxLength: 6 }),
      listedUnder: fc.constantFrom(
        undefined,
        { kind: 'separator' as const },
        { kind: 'heading' as const, heading: 'Sources' },
      ),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((read) =>
    read.map(({ id, title, listedUnder, ...fields }, i) =>
      citation(i + 1, {
        ...fields,
        ...(id ? { id } : {}),
        ...(title ? { title } : {}),
        ...(listedUnder ? { listedUnder } : {}),
      }),
    ),
  );

test('linkMarkers in steps of any budget gives the whole run spans', () => {
  fc.assert(
    fc.property(answerText, citations, stepUnits, fc.boolean(), (text, cited, units, anchors) => {
      const whole = linkMarkers(text, cited, { anchors });
      assert.deepEqual(stepped(linkMarkerSteps(text, cited, { anchors, stepUnits: units })).value, whole);
    }),
    RUNS,
  );
});

test('linkMarkers: passes over other texts resumed in turn, each step of each, give what each gives alone', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(answerText, citations), { minLength: 2, maxLength: 3 }), stepUnits, (runs, units) => {
      const alone = runs.map(([text, cited]) => linkMarkers(text, cited));
      const together = inTurn(runs.map(([text, cited]) => linkMarkerSteps(text, cited, { stepUnits: units })));
      assert.deepEqual(together, alone);
    }),
    RUNS,
  );
});

test('toUtf16: conversions in steps, resumed in turn over other texts, and the whole call find each offset counted from the start', () => {
  const offsets = fc.array(fc.nat(300), { maxLength: 8 });
  fc.assert(
    fc.property(
      fc.array(fc.tuple(answerText, offsets), { minLength: 2, maxLength: 3 }),
      fc.constantFrom(...UNITS),
      stepUnits,
      (runs, unit, units) => {
        const alone = runs.map(([text, at]) => at.map((offset) => counted(text, offset, unit)));
        const budget = stepBudget(units);
        const converted = (text: string, at: number[]) => toUtf16Steps(text, at, unit, budget);
        assert.deepEqual(inTurn(runs.map(([text, at]) => converted(text, at))), alone);
        assert.deepEqual(
          runs.map(([text, at]) => at.map((offset) => toUtf16(text, offset, unit))),
          alone,
        );
      },
    ),
    RUNS,
  );
});

test('the text-list reader in steps of any budget reads what the whole run reads', () => {
  fc.assert(
    fc.property(answerText, stepUnits, (text, units) => {
      const whole = textList.extract({ choices: [{ message: { content: text } }] });
      assert.deepEqual(stepped(textListSteps(text, stepBudget(units))).value, whole);
    }),
    RUNS,
  );
});

test('the generic reader in steps of any budget reads what the whole run reads', () => {
  const withText = fc
    .tuple(anyPayload, answerText)
    .map(([payload, text]) =>
      isObject(payload) ? { ...payload, choices: [{ message: { content: text } }] } : { choices: [], text },
    );
  fc.assert(
    fc.property(fc.oneof(anyPayload, withText), stepUnits, (payload, units) => {
      if (!isObject(payload)) return;
      const whole = generic.extract(payload);
      assert.deepEqual(stepped(genericSteps(payload, stepBudget(units))).value, whole);
    }),
    RUNS,
  );
});

test('extractCitations in steps of any budget reads what the whole run reads, the text-list and generic readers in steps', () => {
  const written = answerText.map((text) => ({ choices: [{ message: { content: text } }] }));
  fc.assert(
    fc.property(fc.oneof(anyPayload, written), stepUnits, (payload, units) => {
      const whole = extractCitations(payload);
      assert.deepEqual(stepped(extractCitationSteps(payload, {}, stepBudget(units))).value, whole);
    }),
    RUNS,
  );
});

test('a long answer is read in many steps of a small budget, and in one with none', () => {
  const cited = URLS.map((url, i) =>
    citation(i + 1, { url, anchors: [{ start: 100 * i, end: 100 * i + 50, unit: 'utf8' }] }),
  );
  const text = `${'Fact [1], é fact [2][3]. '.repeat(1_000)}\n\nSources:\n${URLS.map((u, i) => `${i + 1}. [S](${u})`).join('\n')}`;
  const whole = stepped(linkMarkerSteps(text, cited));
  assert.equal(whole.steps, 1);
  const small = stepped(linkMarkerSteps(text, cited, { stepUnits: 256 }));
  assert.deepEqual(small.value, whole.value);
  // Each step reads at most its budget and one marker's search: the text is cut in as many steps.
  assert.ok(small.steps >= text.length / 256, `${small.steps} steps for ${text.length} characters`);
});

test('anchors after white space, read in steps in turn with each other, each link from its first word', () => {
  const texts = [`${' '.repeat(500)}word`, `${' '.repeat(100)}word`];
  const passes = texts.map((text) =>
    linkMarkerSteps(text, [citation(1, { anchors: [{ start: 0, end: text.length, unit: 'utf16' }] })], {
      stepUnits: 64,
    }),
  );
  assert.deepEqual(
    inTurn(passes).map((links) => links.map(({ start, end }) => [start, end])),
    [[[500, 504]], [[100, 104]]],
  );
});
