/**
 * The trap on Open WebUI's own markup, one test per producer: its hostile twin (producers/<name>/hostile.yaml,
 * a script-injection payload in every source field its wire format has) as Open WebUI drew it, live and after
 * a reload (test-support/markup/hostile, recorded by `scripts/record_markup.py --hostile` with the extension's
 * UI off), drawn by the UI's features from the citations today's core reads in what the mock server sends for
 * it, streamed or not as recorded (the path capture takes: the body, or the stream's events through the
 * accumulator). Everything is opened: "show all", the sources retrieved but not cited, the first
 * sources' previews, source 1's modal through every page. Nothing the extension added may run or lead
 * elsewhere: no `on*` attribute, no element but the UI's own, no loading attribute, no link but http(s) or
 * same-origin relative; the buttons are those the markers ask for, and every payload is on screen as a title
 * (where the scenario file says so). What only a browser shows (nothing runs, no dialog, no request) is
 * tests/e2e/test_hostile.py's, on a few producers.
 */

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';
import { citationsNow } from '../../test-support/core-reads.js';
import { HARDENING } from '../../test-support/hardening.js';
import { HOSTILE_SCENARIOS, type MockServer, startMockServer } from '../../test-support/mock-server.js';
import type { RecordedAnswer } from '../../test-support/recorded-markup.js';
import type { Citation } from '../core/index.js';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/' });
const { startFeatures } = await import('./index.js');
const features = await import('../parts/features.js');

const MARKUP = new URL('../../test-support/markup/hostile/', import.meta.url);
// The elements the UI builds (as tests/e2e/trap.py lists them): the list, its rows and buttons, the preview, the
// modal, the retrieved group, the settings, the sources as HTML on the clipboard.
const UI_TAGS = new Set(
  'SECTION DIV OL LI BUTTON SPAN H2 P A MARK Q STYLE DETAILS SUMMARY LABEL SELECT OPTION INPUT UL STRONG'.split(' '),
);
// Attributes that make the browser load or run something.
const LOADING = ['src', 'srcset', 'srcdoc', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'background'];
const SAFE_HREF = /^(https?:\/\/[^\s]|\/(?![/\\]))/;
const LOADS = 'script, iframe, object, embed, frame, base, meta, link';
const HIDDEN = '.owc-hidden, [hidden], .hidden';
const PREVIEWED = 5; // sources previewed an answer
const all = (root: ParentNode, selector: string): HTMLElement[] => [...root.querySelectorAll<HTMLElement>(selector)];
const handlers = (): number =>
  all(document, '*').filter((e) => [...e.attributes].some((a) => a.name.toLowerCase().startsWith('on'))).length;

/** Every element the UI creates while `draw` runs, with whatever is put inside it; not those of the page. */
function created(draw: () => void): Element[] {
  const page = new Set(document.querySelectorAll('*'));
  const made: Element[] = [];
  const original = document.createElement;
  document.createElement = ((...args: Parameters<Document['createElement']>) => {
    const element = original.apply(document, args);
    made.push(element);
    return element;
  }) as Document['createElement'];
  try {
    draw();
  } finally {
    document.createElement = original;
  }
  // Each made element and what is inside it, through the made elements no other made element holds (the
  // others are inside those): one query a root, not one an element.
  const madeSet = new Set(made);
  const roots = made.filter((element) => !madeSet.has(element.parentElement as Element));
  const inside = roots.flatMap((root) => [...root.querySelectorAll('*')]);
  return [...new Set([...made, ...inside])].filter((e) => !page.has(e));
}

/** What is wrong with the elements the UI made: a tag it never builds, an event handler, a loading attribute,
 * a link neither http(s) nor same-origin relative. */
function problems(elements: readonly Element[]): { problems: string[]; links: number } {
  const found: string[] = [];
  let links = 0;
  for (const element of elements) {
    const tag = element.tagName.toLowerCase();
    if (!UI_TAGS.has(element.tagName)) found.push(`<${tag}> element`);
    for (const { name, value } of element.attributes) {
      const lower = name.toLowerCase();
      if (lower.startsWith('on') || LOADING.includes(lower)) found.push(`${lower}= on <${tag}>`);
      if (lower === 'style' && /url\(|expression|@import/i.test(value)) found.push(`style=${value}`);
      if (lower === 'href') {
        links++;
        if (!SAFE_HREF.test(value)) found.push(`href=${JSON.stringify(value.slice(0, 80))}`);
      }
    }
  }
  return { problems: found, links };
}

/** As the UI shows a title: a NUL byte (which Open WebUI does not store) as U+FFFD, trimmed, its first 500
 * characters (core/limits.ts MAX_FIELD: the payloads are ASCII there). */
const shownTitle = (payload: string): string => payload.replaceAll('\0', '\uFFFD').trim().slice(0, 500);

/** The citation numbers the answer's markers ask for, in reading order: [N], [docN], RAGFlow's [ID:N], Jina's
 * [^N] (not its definitions "[^N]:"), Brave's tags' numbers, 【N†source】; each producer number the first
 * citation that names it. */
function citedNumbers(text: string, citations: readonly Citation[]): number[] {
  const numberOf = new Map<number, number>();
  for (const c of citations) for (const ref of c.refs) if (!numberOf.has(ref)) numberOf.set(ref, c.index);
  const markers = /\[(?:doc|ID:\s?|\^)?(\d+)\](?!:)|<citation>\{[^<]*?"number": (\d+)|【(\d+)†/g;
  return [...text.matchAll(markers)]
    .map(([, a, b, c]) => numberOf.get(Number(a ?? b ?? c)))
    .filter((index): index is number => index !== undefined);
}

/** Opens everything the UI offers for the answer, as the e2e suite does in a browser; with `pages`, every page
 * of the modal, forward (drawing them is most of this test's time: once a producer, as the pages are drawn
 * from the citations alone, the same live and after a reload); what was opened. */
function openEverything(message: HTMLElement, payloads: readonly string[], pages: boolean) {
  const count = (group: HTMLElement | null) => Number(group?.dataset.owcCount ?? 0);
  const report = { count: 0, listed: 0, buttons: [] as number[], previews: 0, pages: 0, titles: 0 };
  report.count = count(message.querySelector('.owc-sources')) + count(message.querySelector('.owc-retrieved'));
  message.querySelector<HTMLElement>('.owc-sources .owc-more[aria-expanded="false"]')?.click(); // "show all"
  for (const group of all(message, '.owc-retrieved')) {
    (group as HTMLDetailsElement).open = true;
    group.dispatchEvent(new Event('toggle'));
  }
  report.listed = all(message, '.owc-sources .owc-source, .owc-retrieved .owc-source').length;
  // The first sources' buttons preview them (a source's buttons show the same preview, drawn from the fields the
  // modal's pages draw for every source below; hovering is most of this test's time besides those pages).
  const previewed = new Set<number>();
  for (const cite of all(message, '.owc-cite').filter((b) => b.closest(HIDDEN) === null)) {
    const index = Number(cite.dataset.owcIndex);
    report.buttons.push(index);
    if (previewed.has(index) || previewed.size === PREVIEWED) continue;
    previewed.add(index);
    cite.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
    if (document.querySelector('.owc-preview')) report.previews++;
    cite.dispatchEvent(new PointerEvent('pointerout', { bubbles: true }));
  }
  const titles = new Set(payloads.map(shownTitle));
  const shown = new Set<string>();
  if (!pages) return { ...report, titles: 0, distinctTitles: 0 };
  message.querySelector<HTMLElement>('.owc-source[data-owc-index="1"]')!.click();
  // The modal draws each page anew in its backdrop, which stays.
  const backdrop = document.querySelector('.owc-modal')!.parentElement!;
  for (;;) {
    report.pages++;
    const title = backdrop.querySelector('.owc-title')!.textContent.replace(/^\d+\. /, '');
    if (titles.has(title)) shown.add(title);
    const next = backdrop.querySelector<HTMLButtonElement>('.owc-next')!;
    if (next.disabled) break;
    next.click();
  }
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  return { ...report, titles: shown.size, distinctTitles: titles.size };
}

const recordings = existsSync(MARKUP) ? readdirSync(MARKUP).filter((name) => name.endsWith('.json')) : [];
test('the hostile twins are recorded on Open WebUI markup', () => assert.ok(recordings.length));

/** Links the UI made over every producer, each checked (knowledge bases' sources have none). */
let linksChecked = 0;
let mock: MockServer;
let served: Set<string>;
before(async () => {
  mock = await startMockServer([HOSTILE_SCENARIOS]);
  served = new Set(await mock.models());
});
after(() => mock.stop());

for (const file of recordings) {
  const { openWebui, answers } = JSON.parse(readFileSync(new URL(file, MARKUP), 'utf8')) as {
    openWebui: number[];
    answers: RecordedAnswer[];
  };
  const producers = [...new Set(answers.map((a) => a.model))];
  test(`Open WebUI ${openWebui.join('.')}: every hostile twin is recorded, live and after a reload`, () => {
    assert.deepEqual(producers.sort(), Object.keys(HARDENING.hostile).sort(), 'make record-markup-hostile');
    for (const model of producers) assert.equal(answers.filter((a) => a.model === model).length, 2, model);
  });
  for (const model of producers) {
    test(`Open WebUI ${openWebui.join('.')}, ${model}: nothing the extension adds runs or leads elsewhere`, async () => {
      const checks = HARDENING.hostile[model]!;
      for (const recorded of answers.filter((a) => a.model === model)) {
        const where = `${model} ${recorded.stream ? 'streaming' : 'non-streaming'} ${recorded.phase}`;
        const citations = await citationsNow(mock, served, model, recorded.stream, recorded.html);
        assert.ok(citations, `${model}: neither the mock serves it nor LiteLLM's answer is recorded`);
        assert.ok(citations.length > 0, `${where}: the core reads no source`);
        const view = { ...recorded.view, citations };
        document.body.innerHTML = recorded.html; // recorded from Open WebUI, as it drew the answer
        const message = document.body.firstElementChild as HTMLElement;
        const [handlersBefore, loadingBefore] = [handlers(), all(document, LOADS).length];
        const turnedOff = new AbortController();
        const hub = { view: () => view, ids: () => [view.messageId], subscribe: () => () => {} };
        try {
          let report: ReturnType<typeof openEverything> | undefined;
          const made = created(() => {
            startFeatures(hub, turnedOff.signal, undefined, undefined, features).apply(message);
            report = openEverything(message, HARDENING.payloads, recorded.phase === 'live');
          });
          const audit = problems(made);
          assert.deepEqual(audit.problems, [], where);
          linksChecked += audit.links;
          assert.equal(handlers(), handlersBefore, `${where}: an event handler attribute was added`);
          assert.equal(all(document, LOADS).length, loadingBefore, `${where}: an element that loads was added`);
          const { count, listed, pages, previews, buttons } = report!;
          assert.ok(count > 0 && listed === count, `${where}: ${count} sources, ${listed} listed`);
          if (recorded.phase === 'live') assert.equal(pages, count, `${where}: the modal's pages`);
          const shouldPreview = Math.min(new Set(buttons).size, PREVIEWED);
          assert.equal(previews, shouldPreview, `${where}: a source's button previews it`);
          if (checks.buttons === 'as the markers say') {
            assert.deepEqual(buttons, citedNumbers(recorded.view.text, citations), `${where}: buttons`);
          } else if (checks.buttons === 'none') assert.deepEqual(buttons, [], `${where}: buttons`);
          if (checks.titles === 'payloads' && recorded.phase === 'live') {
            assert.equal(report!.titles, report!.distinctTitles, `${where}: every payload is shown as a title`);
          }
        } finally {
          turnedOff.abort();
          document.body.replaceChildren();
        }
      }
    });
  }
}

test('links were made, and each was checked', () => assert.ok(linksChecked > 0));
