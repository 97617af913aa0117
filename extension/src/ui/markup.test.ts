/**
 * The UI on Open WebUI's own markup: each scenario's answer as a release line drew it, streamed
 * and not, live and after a reload (test-support/markup, recorded by scripts/record_markup.py with
 * the extension's UI off), drawn by the UI's features from the citations today's core reads in what the
 * backend sends for it (test-support/core-reads.ts: the mock server's answer, or LiteLLM's recording), with
 * the text and state the page held (recorded with it): a change of the core shows here. What a
 * user sees is each producer's `seen.json` (producers/<name>/), the end-to-end suite's expectations: the buttons in reading order,
 * the list, the sources retrieved but not cited, the preview and source 1's modal.
 */

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';
import { citationsNow } from '../../test-support/core-reads.js';
import { type MockServer, startMockServer } from '../../test-support/mock-server.js';
import { producerEntries } from '../../test-support/producers.js';
import { drawnOn, type RecordedAnswer } from '../../test-support/recorded-markup.js';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/' });
const { startFeatures } = await import('./index.js');

interface Seen {
  buttons: number[];
  sources: number;
  retrieved?: number;
  title: string;
  link?: boolean;
  page?: string;
  score?: string;
  quote?: string;
  notVerbatim?: number;
  /** The text of the producer's own source list, which gives way to ours (a heading or a line of it). */
  hidden?: string;
}

const json = (url: URL): unknown => JSON.parse(readFileSync(url, 'utf8'));
const SEEN = producerEntries<Seen>('seen.json');
const MARKUP = new URL('../../test-support/markup/', import.meta.url);

// What the browser does not show: what we hid, and what Open WebUI hides itself.
const HIDDEN = '.owc-hidden, [hidden], .hidden';
const visible = (element: Element): boolean => element.closest(HIDDEN) === null;
// Elements are compared by their text: a failing comparison of DOM nodes prints their whole graph.
const text = (element: Element): string => element.textContent;
const numbers = (buttons: Iterable<HTMLElement>): number[] => [...buttons].map((b) => Number(b.dataset.owcIndex));
const all = (root: ParentNode, selector: string): HTMLElement[] => [...root.querySelectorAll<HTMLElement>(selector)];
const contains = (text: string | null | undefined, part: string, what: string) =>
  assert.ok(text?.includes(part), `${what}: ${JSON.stringify(part)} not in ${JSON.stringify(text)}`);
const pressEscape = () => document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));

function checkModal(message: HTMLElement, seen: Seen): void {
  all(message, '.owc-sources button.owc-source[data-owc-index="1"]')[0]!.click();
  const modal = document.querySelector('[role="dialog"][aria-modal="true"].owc-modal')!;
  assert.ok(modal, 'source 1 opens its modal');
  contains(modal.querySelector('.owc-title')?.textContent, seen.title, "the modal's title");
  const link = modal.querySelector<HTMLAnchorElement>('a.owc-link');
  if (seen.link === false) assert.equal(link, null);
  else {
    assert.match(link?.getAttribute('href') ?? '', /^http:\/\/127\.0\.0\.1:\d+\//);
    // The page opens at the quote: a text fragment.
    if (seen.quote) contains(link!.href, `#:~:text=${encodeURIComponent(seen.quote)}`, 'the link');
    assert.equal(link!.getAttribute('rel'), 'noopener noreferrer');
  }
  const shown = { '.owc-page': seen.page, '.owc-score': seen.score, 'mark.owc-quote': seen.quote };
  for (const [selector, text] of Object.entries(shown)) {
    if (text) contains(modal.querySelector(selector)?.textContent, text, selector);
  }
  pressEscape();
  if (!seen.notVerbatim) return;
  all(message, `button.owc-source[data-owc-index="${seen.notVerbatim}"]`)[0]!.click();
  assert.ok(document.querySelector('.owc-modal .owc-not-verbatim'), 'a quote not found verbatim is flagged');
  pressEscape();
}

function check(message: HTMLElement, seen: Seen, reloaded: boolean): void {
  const id = CSS.escape(message.id.slice('message-'.length));
  assert.equal(all(message, `.owc-sources[data-owc-message-id="${id}"] button.owc-source`).length, seen.sources);
  const buttons = all(message, '.owc-cite').filter(visible);
  assert.deepEqual(numbers(buttons), seen.buttons);
  const retrieved = all(message, `.owc-sources + .owc-retrieved[data-owc-message-id="${id}"]`);
  assert.equal(retrieved.length, seen.retrieved ? 1 : 0);
  if (seen.retrieved) {
    assert.equal(retrieved[0]!.querySelector('summary')?.textContent, `${seen.retrieved} more retrieved, not cited`);
  }
  if (buttons.length) {
    contains(buttons[0]!.getAttribute('aria-label'), seen.title, "the first button's label");
    buttons[0]!.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
    contains(document.querySelector('[role="tooltip"].owc-preview')?.textContent, seen.title, 'its preview');
    buttons[0]!.dispatchEvent(new PointerEvent('pointerout', { bubbles: true }));
  }
  checkModal(message, seen);
  // Open WebUI's own "N Sources" strip gives way to our list (drawn, after a reload, from our stored sources).
  const strip = all(message, 'button:not(.owc-source)').filter((b) => /^\s*\d+ Sources?\s*$/.test(b.textContent));
  if (reloaded) assert.deepEqual(strip.filter(visible).map(text), [], "Open WebUI's own strip is hidden");
  if (seen.hidden) {
    const own = all(message, 'h1, h2, h3, h4, li').filter((e) => !e.closest('.owc-sources, .owc-retrieved'));
    const lines = own.filter((e) => e.textContent.includes(seen.hidden!));
    assert.ok(lines.length, "the producer's own source list is drawn");
    assert.deepEqual(lines.filter(visible).map(text), [], "the producer's own source list is hidden");
  }
}

let mock: MockServer;
let served: Set<string>;
before(async () => {
  mock = await startMockServer();
  served = new Set(await mock.models());
});
after(() => mock.stop());

for (const file of readdirSync(MARKUP).filter((name) => name.endsWith('.json'))) {
  const { openWebui, answers } = json(new URL(file, MARKUP)) as { openWebui: number[]; answers: RecordedAnswer[] };
  for (const recorded of answers) {
    const mode = recorded.stream ? 'streaming' : 'non-streaming';
    test(`Open WebUI ${openWebui.join('.')}, ${recorded.model}, ${mode}, ${recorded.phase}`, async () => {
      const citations = await citationsNow(mock, served, recorded.model, recorded.stream, recorded.html);
      assert.ok(citations, `${recorded.model}: neither the mock serves it nor LiteLLM's answer is recorded`);
      const now = { ...recorded, view: { ...recorded.view, citations } };
      drawnOn(now, startFeatures, (message) => check(message, SEEN[recorded.model]!, recorded.phase === 'reloaded'));
    });
  }
}

test("an answer whose sources could not be read says so, in the place of the list, on Open WebUI's markup", () => {
  // The newest line recorded: the pinned one.
  const lines = readdirSync(MARKUP)
    .filter((name) => name.endsWith('.json'))
    .map((file) => json(new URL(file, MARKUP)) as { openWebui: number[]; answers: RecordedAnswer[] });
  const newest = (a: number[], b: number[]) => a.findIndex((n, i) => n !== b[i]);
  const { answers } = lines.reduce((a, b) => {
    const at = newest(a.openWebui, b.openWebui);
    return at >= 0 && b.openWebui[at]! > a.openWebui[at]! ? b : a;
  });
  const recorded = answers.find((a) => a.stream && a.phase === 'live')!;
  for (const unreadable of [true, false]) {
    document.body.innerHTML = recorded.html;
    const message = document.body.firstElementChild as HTMLElement;
    const view = { ...recorded.view, citations: [], done: true, unreadable };
    const turnedOff = new AbortController();
    try {
      startFeatures(
        { view: () => view, ids: () => [view.messageId], subscribe: () => () => {} },
        turnedOff.signal,
      ).apply(message);
      const notes = all(message, '.owc-missing').map(text);
      assert.deepEqual(notes, unreadable ? ['Sources were sent with this answer, but they could not be read.'] : []);
      assert.equal(all(message, '.owc-sources').length, 0);
    } finally {
      turnedOff.abort();
      document.body.replaceChildren();
    }
  }
});
