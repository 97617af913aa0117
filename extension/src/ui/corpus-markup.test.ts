/**
 * What the core reads, the page shows: every answer of the unnamed corpus (corpus/unnamed/) as Open
 * WebUI drew it, streamed and not, live and after a reload (test-support/markup/unnamed, recorded by
 * `scripts/record_markup.py --corpus` with the extension's UI off), drawn by the UI's features from
 * the hub's view recorded with it. The page must show the sources the core read from what the page
 * received (numbers and titles, cited or only retrieved), the buttons the core's reading of the text
 * places (`linkMarkers`: numbers, in reading order), and hide the lists of sources the core hides in
 * the text, and nothing else.
 */

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';
import { drawnOn, type RecordedAnswer } from '../../test-support/recorded-markup.js';
import type { AnswerView } from '../capture/hub.js';
import { linkMarkers, type MarkerSpan } from '../core/index.js';
import { answerContainer, proseBlocks } from '../host/answers.js';
import { LISTS, textNodes } from './linkers/dom-text.js';
import { drawnLetters, letters } from './linkers/text-lists.js';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/' });
const { startFeatures } = await import('./index.js');

/** A corpus answer: which backend's (corpus/unnamed/<dir>/<backend>.yaml). */
type Recorded = RecordedAnswer & { backend: string };

/** Where the page and the core still disagree, by `<backend> <mode> <phase>`: why. Each is asserted to
 * differ still, so that a fix shows here. */
const KNOWN_GAPS: Record<string, string> = {};

const MARKUP = new URL('../../test-support/markup/unnamed/', import.meta.url);
// What the browser does not show: what we hid, and what Open WebUI hides itself.
const HIDDEN = '.owc-hidden, [hidden], .hidden';
const all = (root: ParentNode, selector: string): HTMLElement[] => [...root.querySelectorAll<HTMLElement>(selector)];
const byNumber = (sources: Array<[number, string | undefined]>) => sources.sort((a, b) => a[0] - b[0]);

/** The letters of what a reader sees of the answer's text: its prose, without what is hidden, our
 * lists or any button. */
const visibleLetters = (blocks: readonly Element[]): string =>
  letters(
    blocks.flatMap((block) => textNodes(block, `${HIDDEN}, ${LISTS}, button`).map(({ node }) => node.data)).join('\n'),
  );
// A list's line, compared without its digits: the markdown numbers its lines, Open WebUI draws the
// numbers it reads as citations as buttons (with a source's name), ours as buttons too.
const withoutDigits = (text: string): string => text.replace(/\p{N}/gu, '');
// Shorter lines say too little to be told from the answer's own words.
const MIN_LINE_LETTERS = 8;

/** The pieces of the text the core links or hides, those next to each other (nothing but markup and
 * spaces between them) as one: the letters of each. */
function spannedLetters(content: string, spans: readonly MarkerSpan[]): string[] {
  const merged: Array<{ start: number; end: number }> = [];
  for (const { start, end } of [...spans].sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last && letters(content.slice(last.end, start)) === '') last.end = Math.max(last.end, end);
    else merged.push({ start, end });
  }
  return merged.map(({ start, end }) => withoutDigits(letters(content.slice(start, end))));
}

/** A list of sources the core hides: a block under a heading, a list written in the text, footnotes'
 * definitions (not a tag around one marker). */
const isList = (span: MarkerSpan, content: string): boolean =>
  span.kind === 'hide' &&
  (span.heading !== undefined || span.block === true || content.slice(span.start, span.end).includes('\n'));

/** How what the page shows differs from the core's reading, each difference said; none: the same. */
function disagreements(message: HTMLElement, view: AnswerView): string[] {
  const found: string[] = [];
  const differs = (what: string, page: unknown, core: unknown): void => {
    const [shown, read] = [JSON.stringify(page), JSON.stringify(core)];
    if (shown !== read) found.push(`${what}: the page shows ${shown}, the core reads ${read}`);
  };
  const id = CSS.escape(view.messageId);
  // Every source, as a user who asks for them all sees them (a long list shows its first ones).
  all(message, `.owc-sources[data-owc-message-id="${id}"] .owc-more[aria-expanded="false"]`)[0]?.click();
  // … and opens the group of those retrieved, not cited, whose rows are drawn when it opens.
  for (const group of all(message, `.owc-retrieved[data-owc-message-id="${id}"]`)) {
    (group as HTMLDetailsElement).open = true;
    group.dispatchEvent(new Event('toggle'));
  }
  const listed = all(message, `:is(.owc-sources, .owc-retrieved)[data-owc-message-id="${id}"] button.owc-source`);
  differs(
    'sources',
    byNumber(listed.map((b) => [Number(b.dataset.owcIndex), b.querySelector('.owc-source-title')?.textContent])),
    byNumber(view.citations.map((c) => [c.index, c.title])),
  );
  const spans = linkMarkers(view.text, view.citations);
  const visibleButtons = all(message, '.owc-cite').filter((b) => b.closest(HIDDEN) === null);
  differs(
    'buttons',
    visibleButtons.map((b) => Number(b.dataset.owcIndex)),
    spans.filter((s) => s.kind !== 'hide').flatMap((s) => s.indices),
  );

  const container = answerContainer(message);
  const blocks = container ? proseBlocks(container) : [];
  const shown = withoutDigits(visibleLetters(blocks));
  for (const list of spans.filter((s) => isList(s, view.text))) {
    for (const line of view.text.slice(list.start, list.end).split('\n')) {
      const written = withoutDigits(letters(line));
      if (written.length >= MIN_LINE_LETTERS && shown.includes(written))
        found.push(`a line of a list the core hides is shown: ${JSON.stringify(line)}`);
    }
  }
  const spanned = spannedLetters(view.text, spans);
  const hidden = blocks
    .flatMap((block) => all(block, '.owc-hidden'))
    .filter((e) => !e.matches('button') && !e.parentElement?.closest(`.owc-hidden, ${LISTS}`));
  for (const element of hidden) {
    const text = withoutDigits(drawnLetters(element));
    if (text && !spanned.some((piece) => piece.includes(text)))
      found.push(`hidden, though the core neither links nor hides it: ${JSON.stringify(element.textContent)}`);
  }
  return found;
}

const recordings = existsSync(MARKUP) ? readdirSync(MARKUP).filter((name) => name.endsWith('.json')) : [];
test('the corpus is recorded on Open WebUI markup', () => assert.ok(recordings.length));

for (const file of recordings) {
  const { openWebui, answers } = JSON.parse(readFileSync(new URL(file, MARKUP), 'utf8')) as {
    openWebui: number[];
    answers: Recorded[];
  };
  for (const recorded of answers) {
    const name = `${recorded.backend} ${recorded.stream ? 'streaming' : 'non-streaming'} ${recorded.phase}`;
    test(`Open WebUI ${openWebui.join('.')}, ${name}: the page shows what the core reads`, () =>
      drawnOn(recorded, startFeatures, (message) => {
        const found = disagreements(message, recorded.view);
        const gap = KNOWN_GAPS[name];
        if (gap) assert.notDeepEqual(found, [], `fixed, no longer a known gap (${gap})`);
        else assert.deepEqual(found, []);
      }));
  }
}
