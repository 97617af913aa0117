/**
 * Applies the citation UI to one rendered answer (`#message-<id>`): once it is finished, each
 * linker (linkers/index.ts) over each of its prose blocks, then the source list. Idempotent, and
 * undone piece by piece when Svelte replaces the nodes it was attached to (attachments.ts). A
 * pass is a generator of steps, so that a long one can be cut into slices (observe.ts); the list
 * comes first, as it is the same whatever the text, then the buttons, last block first: a
 * finished answer is read at its end (Open WebUI scrolls along as it streams, a chat opens there).
 */

import type { AnswerView } from '../capture/hub.js';
import {
  type Citation,
  type CitedSplit,
  citationNumbers,
  linkMarkerSteps,
  type MarkerSpan,
  splitCitedSteps,
} from '../core/index.js';
import { answerContainer, proseBlocks } from '../host/answers.js';
import { nativeStrip } from '../host/native.js';
import { detachOrphans, renumber, type View } from './attachments.js';
import { labelCitations } from './citation-labels.js';
import { noteFindable } from './findable.js';
import { LINKERS, openWebuiRuns, type Pass } from './linkers/index.js';
import { listKey, noteMissing, retrievedList, sourceList } from './list.js';
import { settings, settingsKey } from './settings.js';

/** The citations the message's buttons and list show, as far as they show them. */
const shown = new WeakMap<Element, { citations: readonly Citation[]; key: string }>();
const citationsKey = (citations: readonly Citation[]): string =>
  citations.map((c) => `${c.index}\u0000${c.id}\u0000${c.title}\u0000${c.refs.join()}`).join('\u0001');

/** Records the citations as the ones the message shows; whether they differ from those it showed. */
function recordShown(message: Element, citations: readonly Citation[]): boolean {
  const before = shown.get(message);
  if (before?.citations === citations) return false;
  const key = citationsKey(citations);
  shown.set(message, { citations, key });
  return before !== undefined && before.key !== key;
}

// The core's reading of the whole text, in steps of this many characters or items (core/steps.ts):
// a small part of a slice (observe.ts), so that a slice ends near its time whatever the answer.
const STEP_UNITS = 2048;

// A pass runs at every change of the message: its spans are found once per text and citations.
const knownSpans = new WeakMap<readonly Citation[], { content: string; spans: readonly MarkerSpan[] }>();
function* spansOf(content: string, citations: readonly Citation[]): Generator<void, readonly MarkerSpan[]> {
  const known = knownSpans.get(citations);
  if (known?.content === content) return known.spans;
  const spans = yield* linkMarkerSteps(content, citations, { stepUnits: STEP_UNITS });
  knownSpans.set(citations, { content, spans });
  return spans;
}

/** The pass over one answer, in steps. */
export function* passOver(message: HTMLElement, answer: AnswerView): Generator<void> {
  const { messageId, text: content, done } = answer;
  // The hub reads an answer's sources when first asked: here, in the pass's first steps.
  const citations = answer.readCitations ? yield* answer.readCitations(STEP_UNITS) : answer.citations;
  detachOrphans(message);
  const container = answerContainer(message);
  if (!container) return;
  noteMissing(container, messageId, answer.unreadable ? 'unreadable' : answer.interrupted ? 'interrupted' : null);
  noteFindable(container, messageId, done && citations.length === 0);
  if (citations.length === 0) return;
  const byIndex = new Map(citations.map((c) => [c.index, c]));
  const { byUrl, byRef } = citationNumbers(citations);
  const renewed = recordShown(message, citations);
  // The answer's markdown, read where markers are linked or buttons renumbered.
  const contentSpans = done || renewed ? yield* spansOf(content, citations) : [];
  const view: View = { citations, byIndex, byUrl, byRef, contentSpans };
  // Cited and retrieved are told apart once the text is whole: while it streams, every source shows.
  const split = done ? yield* splitCitedSteps(content, citations, contentSpans, STEP_UNITS) : null;
  if (renewed) renumber(message, view);
  nativeStrip(container)?.classList.toggle('owc-hidden', !settings().keepOpenWebuiStrip);
  drawLists(container, messageId, split ?? { cited: citations, retrieved: [] }, renewed);
  yield;

  // Svelte rewrites the answer's text on every streamed token: markers are linked once it is done.
  if (!done) return;
  const pass: Pass = { message, content, view, runs: yield* openWebuiRuns(content, contentSpans) };
  for (const prose of proseBlocks(container).reverse()) for (const link of LINKERS) yield* link(pass, prose);
  yield* labelCitations(message, byIndex);
}

/** The whole pass at once. */
export function applyToMessage(message: HTMLElement, answer: AnswerView): void {
  for (const _ of passOver(message, answer));
}

/** The list of the sources the text cites, and the group of those only retrieved. */
function drawLists(
  container: Element,
  messageId: string,
  { cited, retrieved }: Readonly<Record<keyof CitedSplit, readonly Citation[]>>,
  renewed: boolean,
): void {
  const shownRetrieved = settings().showRetrieved ? retrieved : [];
  const key = listKey(messageId, cited, shownRetrieved, settingsKey());
  const selector = (name: string) => `.${name}[data-owc-message-id="${CSS.escape(messageId)}"]`;
  const existing = container.querySelector<HTMLElement>(selector('owc-sources'));
  if (existing && !renewed && existing.dataset.owcKey === key) return;
  const list = sourceList(messageId, cited, key, existing);
  if (!existing) container.append(list);
  const before = container.querySelector<HTMLDetailsElement>(selector('owc-retrieved'));
  if (before && !renewed && before.dataset.owcCount === String(shownRetrieved.length)) return; // as it was ("show all")
  const group = shownRetrieved.length ? retrievedList(messageId, shownRetrieved, before?.open ?? false) : null;
  before?.remove();
  if (group) list.after(group);
}
