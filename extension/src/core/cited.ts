/**
 * Which of an answer's sources its text cites. Producers return more than an answer cites
 * (retrieved documents, search results): those cited come first, the others are "retrieved,
 * not cited". A text that cites none at all (OpenRAG's, NVIDIA RAG's) has them all as cited:
 * nothing in it tells them apart.
 */

import { citationNumbers, linkMarkerSteps, type MarkerSpan } from './markers.js';
import { eachMatchSteps } from './matches.js';
import type { Citation } from './model.js';
import { type Budget, finish, type Steps, stepBudget } from './steps.js';
import { answerTags } from './tags.js';
import { safeUrl } from './urls.js';

export interface CitedSplit {
  cited: Citation[];
  retrieved: Citation[];
}

// A markdown link's destination: `](https://…)`, its URL up to a space or the closing parenthesis.
const LINK_TARGET = /\]\(<?([^()\s<>]+)>?\)/g;

/** What the text cites: markers, offset spans, Brave's citation tags, links to a source's URL.
 * Not the blocks that only list sources (a "Sources" block, footnote definitions). */
function* citedIndexSteps(
  text: string,
  citations: readonly Citation[],
  spans: readonly MarkerSpan[],
  budget: Budget,
): Steps<Set<number>> {
  const indices = new Set<number>();
  for (const span of spans) if (span.kind !== 'hide') span.indices.forEach((i) => indices.add(i));
  const { byRef, byUrl } = citationNumbers(citations);
  for (const tag of answerTags(text)) {
    const index = tag.citedNumber === null ? undefined : byRef.get(tag.citedNumber);
    if (index !== undefined) indices.add(index);
  }
  const hidden = spans.filter((s) => s.kind === 'hide'); // sorted, apart: walked once beside the links
  let h = 0;
  yield* eachMatchSteps(LINK_TARGET, text, budget, (match) => {
    while (h < hidden.length && hidden[h]!.end <= match.index) h++;
    if (h < hidden.length && hidden[h]!.start <= match.index) return;
    const index = byUrl.get(safeUrl(match[1]) ?? '');
    if (index !== undefined) indices.add(index);
  });
  return indices;
}

// The last split of each list of citations (an answer's list is the same object from pass to
// pass): a finished answer's every pass, its copy and its retrieved group ask for the same one.
const lastSplit = new WeakMap<readonly Citation[], { text: string; split: CitedSplit }>();

/** The sources the text cites and those it does not, each in the list's order. `spans`: the
 * text's linkMarkers, when the caller has them already. */
export const splitCited = (text: string, citations: readonly Citation[], spans?: readonly MarkerSpan[]): CitedSplit =>
  finish(splitCitedSteps(text, citations, spans));

/** splitCited in steps (steps.ts) of `stepUnits` (none: the whole run). */
export function* splitCitedSteps(
  text: string,
  citations: readonly Citation[],
  spans?: readonly MarkerSpan[],
  stepUnits?: number,
): Steps<CitedSplit> {
  if (typeof text !== 'string' || !Array.isArray(citations)) return { cited: [], retrieved: [] };
  const last = lastSplit.get(citations);
  if (last?.text === text) return last.split;
  const read = spans ?? (yield* linkMarkerSteps(text, citations, { stepUnits }));
  const indices = yield* citedIndexSteps(text, citations, read, stepBudget(stepUnits));
  const split =
    indices.size === 0
      ? { cited: [...citations], retrieved: [] }
      : {
          cited: citations.filter((c) => indices.has(c.index)),
          retrieved: citations.filter((c) => !indices.has(c.index)),
        };
  lastSplit.set(citations, { text, split });
  return split;
}
