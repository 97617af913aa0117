/**
 * Which of an answer's sources its text cites. Producers return more than an answer cites
 * (retrieved documents, search results): those cited come first, the others are "retrieved,
 * not cited". A text that cites none at all (OpenRAG's, NVIDIA RAG's) has them all as cited:
 * nothing in it tells them apart.
 */

import { citationNumbers, linkMarkers, type MarkerSpan } from './markers.js';
import type { Citation } from './model.js';
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
function citedIndices(text: string, citations: readonly Citation[], spans: readonly MarkerSpan[]): Set<number> {
  const indices = new Set<number>();
  for (const span of spans) if (span.kind !== 'hide') span.indices.forEach((i) => indices.add(i));
  const { byRef, byUrl } = citationNumbers(citations);
  for (const tag of answerTags(text)) {
    const index = tag.citedNumber === null ? undefined : byRef.get(tag.citedNumber);
    if (index !== undefined) indices.add(index);
  }
  const hidden = spans.filter((s) => s.kind === 'hide'); // sorted, apart: walked once beside the links
  let h = 0;
  for (const match of text.matchAll(LINK_TARGET)) {
    while (h < hidden.length && hidden[h]!.end <= match.index) h++;
    if (h < hidden.length && hidden[h]!.start <= match.index) continue;
    const index = byUrl.get(safeUrl(match[1]) ?? '');
    if (index !== undefined) indices.add(index);
  }
  return indices;
}

// The last split of each list of citations (an answer's list is the same object from pass to
// pass): a finished answer's every pass, its copy and its retrieved group ask for the same one.
const lastSplit = new WeakMap<readonly Citation[], { text: string; split: CitedSplit }>();

/** The sources the text cites and those it does not, each in the list's order. `spans`: the
 * text's linkMarkers, when the caller has them already. */
export function splitCited(text: string, citations: readonly Citation[], spans?: readonly MarkerSpan[]): CitedSplit {
  if (typeof text !== 'string' || !Array.isArray(citations)) return { cited: [], retrieved: [] };
  const last = lastSplit.get(citations);
  if (last?.text === text) return last.split;
  const indices = citedIndices(text, citations, spans ?? linkMarkers(text, citations));
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
