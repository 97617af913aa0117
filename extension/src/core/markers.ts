/**
 * Finds where an answer cites its sources: inline markers (one file per syntax, marker-syntax/),
 * the offset spans producers attach to citations, and the sources the text lists itself, to hide
 * once the sources are shown (one file per syntax, source-blocks/; lists in the text,
 * source-lists.ts). Offsets are UTF-16, into the text given (the answer's markdown).
 */

import { footnoteBlockSteps } from './footnotes.js';
import { markdownLinkSteps } from './formats/answer-links.js';
import { MARKER_SYNTAXES, markerPattern, readMarker } from './marker-syntax/index.js';
import type { Unnamed, WrittenMarker } from './marker-syntax/syntax.js';
import { eachMatchSteps } from './matches.js';
import type { Anchor, Citation, OffsetUnit } from './model.js';
import { toUtf16Steps } from './offsets.js';
import { type HiddenBlock, SOURCE_BLOCKS } from './source-blocks/index.js';
import { type ListedSource, type ListPlace, listPlace, sourceListSteps } from './source-lists.js';
import { type Budget, finish, type Steps, stepBudget, WHOLE } from './steps.js';
import { isWebUrl, safeUrl } from './urls.js';

export interface MarkerSpan {
  start: number;
  end: number;
  /** The citations (their `index`) this span cites, in the order written. */
  indices: number[];
  /**
   * marker: an inline marker, to be replaced by one button per index;
   * link: answer text a producer attached a citation to (start === end: a point);
   * hide: a block or tag listing sources in text, redundant once they are shown.
   */
  kind: 'marker' | 'link' | 'hide';
  /** For a marker: the numbers it writes that name no source (the backend cited a source it did
   * not send), each once, in the order written. */
  unnamed?: readonly number[];
  /** For a block that closes the answer under a heading: the heading as it reads on screen
   * ("Sources", "References"), where the UI finds the block. */
  heading?: string;
  /** For a list of sources written in the text (source-lists.ts), anywhere in it: the UI hides the
   * blocks Open WebUI draws of those lines, found by their text. */
  block?: true;
}

// A plain "[n]" is a citation only in a range producers number their sources in: "[2024]" in an
// answer is a year, "[0]" an index, not a source the backend forgot.
const MAX_PLAIN_REF = 999;
const NONE: readonly number[] = [];

const MARKERS = markerPattern();
const CODE = /```[\s\S]*?(?:```|$)|`[^`\n]+`/g;

/** The markers Open WebUI draws a button for: [1], [1, 2], [1][2], and the [1] of [[1]](url). */
const OPEN_WEBUI_MARKER = /^\[{1,2}\d/;

/** A marker as Open WebUI reads it: whether it draws its own button for it, and the numbers
 * written in it ("[2, 5]" → 2, 5; "[[3]](url)" → 3), which it takes as positions in its own source
 * list; a syntax Open WebUI draws otherwise says so itself (marker-syntax/syntax.ts). */
export function writtenMarker(marker: string): WrittenMarker {
  for (const syntax of MARKER_SYNTAXES) {
    const own = syntax.drawnByOpenWebui?.(marker);
    if (own) return own;
  }
  const inBrackets = /\[([^\]]*)\]/.exec(marker)?.[1];
  const numbers = (inBrackets?.match(/\d+/g) ?? []).map(Number);
  // A link named by a name ([Handbook.pdf](id)): drawn as a link.
  if (marker.endsWith(')') && !isMarkerText(inBrackets ?? '')) return { drawnByOpenWebui: false, numbers: [] };
  return { drawnByOpenWebui: OPEN_WEBUI_MARKER.test(marker), numbers };
}

/** Whether a link's text is a marker, as grok2api and Groq write them: "[1]", "1". */
export const isMarkerText = (text: string): boolean => /^\[?\d+\]?$/.test(text.trim());

// Every syntax's leads as one alternation of literals: one pass over a text, not one per lead.
const LEADS = new RegExp(
  [...new Set(MARKER_SYNTAXES.flatMap((syntax) => syntax.leads))]
    .map((lead) => lead.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
);

/** Whether a piece of text may hold a marker at all: a cheap test before linkMarkers. */
export const mayHoldMarker = (text: string): boolean => LEADS.test(text);

/** The numbers of a marker that name no source, each once, as its syntax says (marker-syntax/syntax.ts
 * `Unnamed`); `defined`: the footnotes the text defines. */
function unnamedRefs(
  written: readonly number[],
  byRef: ReadonlyMap<number, number>,
  rule: Unnamed,
  defined: ReadonlySet<number>,
): readonly number[] {
  if (rule === 'never' || (rule === 'footnote' && written.some((n) => defined.has(n)))) return NONE;
  let unnamed: Set<number> | undefined; // made only when needed: most markers name their sources
  for (const n of written) {
    if (!Number.isInteger(n) || (rule === 'in-range' && (n < 1 || n > MAX_PLAIN_REF))) return NONE;
    if (byRef.has(n)) continue;
    unnamed ??= new Set();
    unnamed.add(n);
  }
  return unnamed ? [...unnamed] : NONE;
}

/** `spans` without those that overlap one of `hidden`: both sorted and apart, walked side by side. */
function withoutHidden<T extends MarkerSpan>(spans: readonly T[], hidden: readonly MarkerSpan[]): T[] {
  let h = 0;
  return spans.filter((span) => {
    while (h < hidden.length && hidden[h]!.end <= span.start) h++;
    return h === hidden.length || hidden[h]!.start >= span.end;
  });
}

/** Whether a position lies in code: the spans sorted, found by halving (an answer may hold tens of
 * thousands of code spans and markers). In steps (steps.ts), as every reading of the text here. */
function* codeSteps(text: string, budget: Budget): Steps<(at: number) => boolean> {
  const starts: number[] = [];
  const ends: number[] = [];
  yield* eachMatchSteps(CODE, text, budget, (match) => {
    starts.push(match.index);
    ends.push(match.index + match[0].length);
  });
  return (at) => {
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (starts[middle]! <= at) low = middle + 1;
      else high = middle;
    }
    return low > 0 && at < ends[low - 1]!;
  };
}

// Built once per list of citations: the UI reads every text node of an answer against the same list.
interface CitationNumbers {
  byRef: Map<number, number>;
  byUrl: Map<string, number>;
  /** By the title of a source without an address (a file's name), for a list in the text naming it. */
  byDocumentTitle: Map<string, number>;
  /** By the source's own id, for a marker that names it (FastGPT's [id](CITE)). */
  byId: Map<string, number>;
  /** By the ids a markdown link may have as its target (Writer's [name](file id)): not a web page
   * nor a path on this site (a link to one is the page, linked by its URL), not a place in this page (#4). */
  byLinkedId: Map<string, number>;
  /** Where a declaration says the answer lists its sources (source-lists.ts), when one read them. */
  listedUnder: ListPlace | null;
}
const numbersOf = new WeakMap<readonly Citation[], CitationNumbers>();

/** The citation (its `index`) each producer number, each URL and each id names: the first that has it. */
export function citationNumbers(citations: readonly Citation[]): CitationNumbers {
  const known = numbersOf.get(citations);
  if (known) return known;
  const byRef = new Map<number, number>();
  const byUrl = new Map<string, number>();
  const byDocumentTitle = new Map<string, number>();
  const byId = new Map<string, number>();
  const byLinkedId = new Map<string, number>();
  let listedUnder: ListPlace | null = null;
  for (const citation of citations) {
    listedUnder ??= listPlace(citation.listedUnder);
    for (const ref of citation.refs ?? []) if (!byRef.has(ref)) byRef.set(ref, citation.index);
    if (citation.url && !byUrl.has(citation.url)) byUrl.set(citation.url, citation.index);
    const { title } = citation;
    if (!citation.url && title && !byDocumentTitle.has(title)) byDocumentTitle.set(title, citation.index);
    const { id } = citation;
    if (typeof id !== 'string' || byId.has(id)) continue;
    byId.set(id, citation.index);
    if (!id.startsWith('#') && !id.startsWith('/') && !isWebUrl(id)) byLinkedId.set(id, citation.index);
  }
  const numbers = { byRef, byUrl, byDocumentTitle, byId, byLinkedId, listedUnder };
  numbersOf.set(citations, numbers);
  return numbers;
}

/** The source numbers the text's markers write, outside code and outside the spans given (a list
 * of sources in the text, whose own numbers cite nothing): what a list in the text is matched to. */
export const citedNumbers = (text: string, outside: ReadonlyArray<{ start: number; end: number }> = []): Set<number> =>
  finish(citedNumberSteps(text, outside, WHOLE));

/** citedNumbers in steps (steps.ts). */
export function* citedNumberSteps(
  text: string,
  outside: ReadonlyArray<{ start: number; end: number }>,
  budget: Budget,
): Steps<Set<number>> {
  const cited = new Set<number>();
  if (typeof text !== 'string') return cited;
  const inCode = yield* codeSteps(text, budget);
  yield* eachMatchSteps(MARKERS, text, budget, (match) => {
    if (inCode(match.index) || outside.some((span) => match.index >= span.start && match.index < span.end)) return;
    const marker = readMarker(match.groups!);
    if (marker.kind === 'id') return;
    for (const n of marker.kind === 'link' ? [marker.n] : marker.numbers) if (Number.isInteger(n)) cited.add(n);
  });
  return cited;
}

/** The markdown links whose target is a source's id (Writer's `[Handbook.pdf](7b1e…)`), outside
 * code and outside the markers found (sorted and apart), as markers. */
function* idLinkSteps(
  text: string,
  byLinkedId: ReadonlyMap<string, number>,
  inCode: (at: number) => boolean,
  markers: readonly MarkerSpan[],
  budget: Budget,
): Steps<MarkerSpan[]> {
  if (byLinkedId.size === 0) return [];
  const links: MarkerSpan[] = [];
  for (const { start, end, target } of yield* markdownLinkSteps(text, budget)) {
    const index = byLinkedId.get(target);
    if (index !== undefined && !inCode(start)) links.push({ start, end, indices: [index], kind: 'marker' });
  }
  return links.length ? withoutHidden(links, markers) : links;
}

/** `spans` (sorted, apart) with `blocks` (sorted, apart) hidden: each span a block overlaps is
 * hidden with it, the block taking its citations when it lists those it holds. One walk, side by side. */
function hideBlocks(spans: readonly MarkerSpan[], blocks: readonly HiddenBlock[]): MarkerSpan[] {
  const kept: MarkerSpan[] = [];
  let b = 0;
  let inside: number[] = []; // the citations of the spans the current block hides
  const close = (): void => {
    const { start, end, indices, heading } = blocks[b++]!;
    const listed = indices === 'cited-inside' ? [...new Set(inside)] : [...indices];
    kept.push({ start, end, indices: listed, kind: 'hide', ...(heading === undefined ? {} : { heading }) });
    inside = [];
  };
  for (const span of spans) {
    while (b < blocks.length && blocks[b]!.end <= span.start) close();
    if (b < blocks.length && blocks[b]!.start < span.end) {
      for (const index of span.indices) inside.push(index);
    } else kept.push(span);
  }
  while (b < blocks.length) close();
  return kept;
}

export interface LinkOptions {
  /** false: only what the text itself writes, not the spans producers attach by offset (which
   * index the whole answer, not a piece of it). */
  anchors?: boolean;
}

export const linkMarkers = (text: string, citations: readonly Citation[], options: LinkOptions = {}): MarkerSpan[] =>
  finish(linkMarkerSteps(text, citations, options));

/** linkMarkers in steps (steps.ts): `stepUnits`, the characters read and items handled a step (none:
 * the whole run, in one). */
export function* linkMarkerSteps(
  text: string,
  citations: readonly Citation[],
  { anchors = true, stepUnits }: LinkOptions & { stepUnits?: number } = {},
): Steps<MarkerSpan[]> {
  if (typeof text !== 'string' || text === '' || !Array.isArray(citations) || citations.length === 0) return [];
  const budget = stepBudget(stepUnits);
  const { byRef, byUrl, byDocumentTitle, byId, byLinkedId, listedUnder } = citationNumbers(citations);
  const resolve = (refs: number[], url?: string): number[] => {
    const viaUrl = url ? byUrl.get(safeUrl(url) ?? '') : undefined;
    if (viaUrl !== undefined) return [viaUrl];
    if (refs.length === 1) {
      const index = byRef.get(refs[0]!); // most markers: no arrays to make
      return index === undefined ? [] : [index];
    }
    return [...new Set(refs.map((r) => byRef.get(r)).filter((i): i is number => i !== undefined))];
  };

  const inCode = yield* codeSteps(text, budget);
  const footnotes = yield* footnoteBlockSteps(text, budget);
  // A footnote the text defines has its source written under the answer: it names something.
  const defined = new Set(footnotes?.definitions.map((d) => d.n));
  const markers: MarkerSpan[] = [];
  yield* eachMatchSteps(MARKERS, text, budget, (match) => {
    if (inCode(match.index)) return;
    const start = match.index;
    const end = start + match[0].length;
    const marker = readMarker(match.groups!);
    if (marker.kind === 'id') {
      // A link to "CITE": one naming no source is left as the link it is.
      const index = byId.get(marker.id);
      if (index !== undefined) markers.push({ start, end, indices: [index], kind: 'marker' });
      return;
    }
    if (marker.kind === 'link') {
      // A link marker leads somewhere even when it names no source: left as the link it is.
      const indices = resolve([marker.n], marker.url);
      if (indices.length) markers.push({ start, end, indices, kind: 'marker' });
      return;
    }
    const indices = resolve(marker.numbers);
    const unnamed = unnamedRefs(marker.numbers, byRef, marker.unnamed, defined);
    if (indices.length || unnamed.length)
      markers.push({ start, end, indices, kind: 'marker', ...(unnamed.length ? { unnamed } : {}) });
  });
  const linkedIds = yield* idLinkSteps(text, byLinkedId, inCode, markers, budget);
  if (linkedIds.length) {
    markers.push(...linkedIds);
    markers.sort(byStart);
  }
  const shownSources = { text, inCode, resolve, byId, budget };
  let spans: MarkerSpan[] = markers;
  let listHidden = false;
  for (const syntax of SOURCE_BLOCKS) {
    const blocks = yield* syntax.find(shownSources);
    if (blocks.length === 0) continue;
    spans = hideBlocks(spans, blocks);
    listHidden ||= syntax.isTheList === true;
  }
  // Lists of sources written in the text (source-lists.ts) whose sources our list shows (by their
  // addresses, or the titles of those without one), outside what is hidden already: their own numbers are no markers; hidden when the
  // text says they are sources (or the declaration that read them does), else left in place.
  const lists = (listHidden ? [] : yield* sourceListSteps(text, listedUnder, budget)).flatMap((list) => {
    const shown = (s: ListedSource) => (s.url ? byUrl.get(safeUrl(s.url) ?? '') : byDocumentTitle.get(s.title ?? ''));
    const indices = [...new Set(list.sources.flatMap((s) => shown(s) ?? []))];
    const heading = list.heading ? { heading: list.heading } : {};
    return indices.length
      ? [{ start: list.start, end: list.end, indices, kind: 'hide' as const, said: list.said, ...heading }]
      : [];
  });
  if (lists.length) {
    const shown = withoutHidden(lists, spans.filter((s) => s.kind === 'hide').sort(byStart));
    spans = withoutHidden(spans.sort(byStart), shown);
    for (const { said, ...span } of shown) if (said) spans.push({ ...span, block: true });
  }
  // Sorted already (but for the lists' blocks, which the sort merges in linear time); then the
  // anchors kept, after them.
  const taken = spans.sort(byStart);
  const added = anchors ? yield* placeAnchorSteps(text, citations, taken, budget) : [];
  return added.length ? [...taken, ...added].sort(byStart) : taken;
}

interface AnchorSpan {
  index: number;
  from: number;
  to: number;
}

/** Numbers sorted, each once. */
function ascending(numbers: number[]): Float64Array {
  const sorted = Float64Array.from(numbers).sort();
  let kept = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[kept - 1]) sorted[kept++] = sorted[i]!;
  return sorted.subarray(0, kept);
}

/** Where `at` is in `sorted` (or would be): the count of those below it. */
function rank(sorted: Float64Array, at: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! < at) low = middle + 1;
    else high = middle;
  }
  return low;
}

const isOffset = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/** Every citation's anchors as UTF-16 spans, in the citations' order, those outside the text left
 * out, white space at the start skipped (grok2api's span starts with a space). The offsets are
 * converted in ascending order (a conversion walks on from the previous one: listed backwards, each
 * would walk from the start), and a run of white space is walked once, whatever number of anchors
 * start in it. Sorted arrays and halving, not maps: thousands of anchors. */
function* anchorSpanSteps(text: string, citations: readonly Citation[], budget: Budget): Steps<AnchorSpan[]> {
  const anchorsOf = (citation: Citation): readonly Anchor[] =>
    Array.isArray(citation.anchors) ? citation.anchors : [];
  const named = new Map<unknown, number[]>(); // per unit, the offsets named
  for (const citation of citations) {
    if (budget.spend(1 + anchorsOf(citation).length)) yield;
    for (const { start, end, unit } of anchorsOf(citation)) {
      const offsets = named.get(unit) ?? [];
      named.set(unit, offsets);
      if (isOffset(start)) offsets.push(start);
      if (isOffset(end)) offsets.push(end);
    }
  }
  const converted = new Map<unknown, { offsets: Float64Array; utf16: Float64Array }>();
  for (const [unit, offsets] of named) {
    const sorted = ascending(offsets);
    if (budget.spend(sorted.length)) yield;
    const found = yield* toUtf16Steps(text, sorted, unit as OffsetUnit, budget);
    converted.set(unit, { offsets: sorted, utf16: Float64Array.from(found, (at) => at ?? -1) });
  }
  const toText = (offset: number, unit: unknown): number => {
    if (!isOffset(offset)) return -1;
    const { offsets, utf16 } = converted.get(unit)!;
    return utf16[rank(offsets, offset)]!;
  };
  const spans: AnchorSpan[] = [];
  for (const citation of citations) {
    if (budget.spend(1 + anchorsOf(citation).length)) yield;
    for (const { start, end, unit } of anchorsOf(citation)) {
      const from = toText(start, unit);
      const to = toText(end, unit);
      if (from >= 0 && to >= from) spans.push({ index: citation.index, from, to });
    }
  }
  const starts = ascending(spans.filter((s) => s.from < s.to).map((s) => s.from));
  const firstNonSpace = new Float64Array(starts.length);
  let runEnd = -1;
  for (let i = 0; i < starts.length; i++) {
    const start = starts[i]!;
    if (start >= runEnd) {
      SPACE_RUN.lastIndex = start;
      SPACE_RUN.exec(text);
      runEnd = SPACE_RUN.lastIndex; // read before a yield: another pass may move the shared regex's lastIndex
      if (budget.spend(1 + runEnd - start)) yield;
    }
    firstNonSpace[i] = runEnd; // [start, runEnd) is white space
  }
  for (const span of spans) {
    if (span.from < span.to) span.from = Math.min(firstNonSpace[rank(starts, span.from)]!, span.to);
  }
  return spans;
}
const SPACE_RUN = /\s*/y;

const byStart = (a: MarkerSpan, b: MarkerSpan): number => a.start - b.start || a.end - b.end;

/**
 * The anchors' spans that overlap nothing before them, as links: `taken` (sorted, apart), then
 * each anchor in turn, first come first kept. An anchor on the span of a link kept before adds its
 * citation to it; a point (start === end) is kept unless it lies inside a span. Whether an anchor
 * overlaps a span kept before is "does a span start before its end and end after its start": for
 * `taken`, the first span ending after its start, found by halving; for the anchors kept, the
 * largest end of those starting before its end, from a Fenwick tree of their ends by start. n log n,
 * where inserting each into a sorted array would move all those after it.
 */
function* placeAnchorSteps(
  text: string,
  citations: readonly Citation[],
  taken: readonly MarkerSpan[],
  budget: Budget,
): Steps<MarkerSpan[]> {
  const spans = yield* anchorSpanSteps(text, citations, budget);
  if (spans.length === 0) return [];
  const overlapsTaken = (from: number, to: number): boolean => {
    let low = 0;
    let high = taken.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (taken[middle]!.end > from) high = middle;
      else low = middle + 1;
    }
    const other = taken[low];
    return other !== undefined && (from === to ? from > other.start : to > other.start);
  };
  const starts = ascending(spans.map((s) => s.from));
  const ends = new Float64Array(starts.length + 1).fill(-1); // the Fenwick tree, from 1
  const keep = (from: number, to: number): void => {
    for (let i = rank(starts, from) + 1; i < ends.length; i += i & -i) ends[i] = Math.max(ends[i]!, to);
  };
  const lastEndBefore = (at: number): number => {
    let last = -1;
    for (let i = rank(starts, at); i > 0; i -= i & -i) last = Math.max(last, ends[i]!);
    return last;
  };

  const added: MarkerSpan[] = [];
  // The links kept, by start: two that are not points never start at the same place (they would overlap).
  const links = new Map<number, MarkerSpan>();
  const citedBy = new Map<MarkerSpan, Set<number>>(); // for a link many citations name
  for (const { index, from, to } of spans) {
    if (budget.spend(1)) yield;
    const same = from < to ? links.get(from) : undefined;
    if (same?.end === to) {
      const cited = citedBy.get(same) ?? new Set(same.indices);
      citedBy.set(same, cited);
      if (!cited.has(index)) same.indices.push(index);
      cited.add(index);
      continue;
    }
    // Overlaps a span (a point: lies inside one) kept before.
    if (overlapsTaken(from, to) || lastEndBefore(from === to ? from : to) > from) continue;
    const span: MarkerSpan = { start: from, end: to, indices: [index], kind: 'link' };
    added.push(span);
    keep(from, to);
    if (from < to) links.set(from, span);
  }
  return added;
}
