/**
 * From a source to the places its answer cites it. Hovering or focusing a source row marks each
 * citation button of the answer that names it (`data-owc-marked`) and the sentence it stands
 * after (a CSS highlight, where the browser has the Custom Highlight API); the modal marks the
 * source it shows and steps through those places (startSteps). From a citation button, ← and →
 * move to the previous and next citation of the answer (of the source, while stepping), Home and
 * End to the first and last; Escape ends stepping and goes back to where it began.
 */

import { guard } from '../guard.js';
import { MESSAGES } from '../host/answers.js';
import { BUTTONS, citationButtons } from './citation-labels.js';
import type { Feature } from './context.js';

export const MARKED = 'data-owc-marked';
const HIGHLIGHT = 'owc-claim';
// A sentence is read back this far at most, in characters and in nodes passed: a paragraph
// without a full stop, or of thousands of empty elements, costs no more.
const READ_BACK = 2_000;
const READ_BACK_NODES = 200;
// The sentences highlighted for one source at most: its buttons are all marked.
const MAX_SENTENCES = 100;
const BLOCKS = 'p, li, td, th, blockquote, h1, h2, h3, h4, h5, h6, dd, dt';
const ENDS = new Set(['.', '!', '?', '。', '！', '？']);
const WIDE_ENDS = new Set(['。', '！', '？']); // end a sentence without a space after them
const isBlank = (c: string): boolean => c === ' ' || c === '\n' || c === '\t' || c === '\u00a0';

/** The buttons of a message that cite source `index`, in reading order. */
export const placesOf = (message: ParentNode | null, index: number): HTMLButtonElement[] =>
  message ? citationButtons(message).filter((button) => button.dataset.owcIndex === String(index)) : [];

const isSkipped = (node: Node): boolean => node instanceof Element && node.matches('button, .owc-unnamed');

/** The text node before `node` within `block`, not in a button (ours: their numbers are no words);
 * null once `budget` nodes were passed. */
function previousText(node: Node, block: Node, budget: { nodes: number }): Text | null {
  let current: Node | null = node;
  while (current && current !== block && budget.nodes-- > 0) {
    if (current.previousSibling) {
      current = current.previousSibling;
      while (!isSkipped(current) && current.lastChild) current = current.lastChild;
      if (current.nodeType === Node.TEXT_NODE) return current as Text;
    } else {
      current = current.parentNode;
    }
  }
  return null;
}

/** The sentence a citation button stands after: back from the button to the end of the sentence
 * before it (a full stop and a blank), within the button's paragraph. */
export function sentenceBefore(button: Element): Range | null {
  const block = button.closest(BLOCKS) ?? button.parentElement;
  if (!block) return null;
  let read = 0;
  let inSentence = false; // past the blanks and the full stop right before the button
  let after = ''; // the character after the one read, in the text's order, and where it is
  let afterAt: [Text, number] | null = null;
  let first: Text | null = null;
  const budget = { nodes: READ_BACK_NODES };
  for (
    let node = previousText(button, block, budget);
    node && read < READ_BACK;
    node = previousText(node, block, budget)
  ) {
    first = node;
    const text = node.data;
    for (let i = text.length - 1; i >= 0 && read < READ_BACK; i--, read++) {
      const c = text[i]!;
      if (!inSentence) {
        inSentence = !isBlank(c) && !ENDS.has(c);
      } else if (ENDS.has(c) && (WIDE_ENDS.has(c) || isBlank(after))) {
        const range = document.createRange();
        range.setStart(...afterAt!);
        range.setEndBefore(button);
        return range;
      }
      after = c;
      afterAt = [node, i];
    }
  }
  if (!first || !inSentence) return null;
  const range = document.createRange();
  range.setStart(first, 0);
  range.setEndBefore(button);
  return range;
}

const highlights = (): HighlightRegistry | null =>
  typeof Highlight === 'function' && typeof CSS !== 'undefined' && CSS.highlights ? CSS.highlights : null;

export function unmark(): void {
  document.querySelectorAll(`[${MARKED}]`).forEach((button) => button.removeAttribute(MARKED));
  highlights()?.delete(HIGHLIGHT);
}

export function mark(buttons: readonly HTMLElement[]): void {
  unmark();
  for (const button of buttons) button.setAttribute(MARKED, '');
  const ranges = buttons.slice(0, MAX_SENTENCES).flatMap((button) => sentenceBefore(button) ?? []);
  if (ranges.length) highlights()?.set(HIGHLIGHT, new Highlight(...ranges));
}

/** Stepping through one source's places: their buttons, and where focus goes back to. */
let steps: { buttons: HTMLButtonElement[]; back: () => HTMLElement | null } | null = null;

export function startSteps(buttons: HTMLButtonElement[], back: () => HTMLElement | null): void {
  if (!buttons.length) return;
  steps = { buttons, back };
  mark(buttons);
  go(buttons[0]!);
}

function endSteps(): void {
  const back = steps?.back();
  steps = null;
  unmark();
  back?.focus();
}

function go(button: HTMLElement): void {
  button.focus({ preventScroll: true });
  button.scrollIntoView({ block: 'center' });
}

const MOVES: Record<string, (k: number, last: number) => number> = {
  ArrowRight: (k) => k + 1,
  ArrowLeft: (k) => k - 1,
  Home: () => 0,
  End: (_, last) => last,
};

/** Which source row, if any, an event is on. */
const rowOf = (event: Event): HTMLElement | null =>
  (event.target as Element | null)?.closest?.<HTMLElement>('.owc-source') ?? null;

function markRow(row: HTMLElement): void {
  if (steps) return;
  const message = row.closest(MESSAGES);
  mark(placesOf(message, Number(row.dataset.owcIndex)));
}

export const initPlaces: Feature = (_, signal) => {
  // Focus that leaves the places (a click elsewhere, Tab) ends stepping where it is.
  document.addEventListener(
    'focusin',
    guard('ui', (event: FocusEvent) => {
      if (steps && !steps.buttons.includes(event.target as HTMLButtonElement)) {
        steps = null;
        unmark();
      }
    }),
    { signal },
  );
  const enter = guard('ui', (event: Event) => {
    const row = rowOf(event);
    if (row) markRow(row);
  });
  const leave = guard('ui', (event: Event) => {
    if (rowOf(event) && !steps) unmark();
  });
  document.addEventListener('pointerover', enter, { signal });
  document.addEventListener('focusin', enter, { signal });
  document.addEventListener('pointerout', leave, { signal });
  document.addEventListener('focusout', leave, { signal });
  document.addEventListener(
    'keydown',
    guard('ui', (event: KeyboardEvent) => {
      const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>(BUTTONS);
      if (!button || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const stepping = steps?.buttons.includes(button) ? steps : null;
      if (event.key === 'Escape' && stepping) {
        event.preventDefault();
        endSteps();
        return;
      }
      const move = MOVES[event.key];
      const message = button.closest(MESSAGES);
      if (!move || !message) return;
      const buttons = stepping?.buttons ?? citationButtons(message);
      const k = buttons.indexOf(button);
      const next = buttons[move(k, buttons.length - 1)];
      event.preventDefault();
      if (next && next !== button) go(next);
    }),
    { signal },
  );
};
