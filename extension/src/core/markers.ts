/**
 * Finds where an answer cites its sources: inline markers of every producer, the offset
 * spans producers attach to citations, and the source blocks/tags to hide once the sources
 * are shown. Offsets are UTF-16, into the text given (the answer's markdown).
 */

import { footnoteBlock } from './footnotes.js';
import type { Citation } from './model.js';
import { spanToUtf16 } from './offsets.js';
import { safeUrl } from './urls.js';

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
}

const NUMBER_LIST = String.raw`\d{1,4}(?:\s*[-–]\s*\d{1,4})?(?:\s*,\s*\d{1,4}(?:\s*[-–]\s*\d{1,4})?)*`;
const MARKERS = new RegExp(
  [
    String.raw`(?<grokN>\d{1,4})\]\]\((?<grokUrl>[^()\s]+)\)`, // [[1]](url), after its "[["
    String.raw`doc(?<doc>\d{1,4})\]`, // [doc1]
    String.raw`\^(?<foot>\d{1,4})\](?!:)`, // [^1], not a footnote definition
    String.raw`(?<linkN>\d{1,4})\]\((?<linkUrl>[^()\s]+)\)`, // [1](url)
    String.raw`(?<list>${NUMBER_LIST})\](?![(:])`, // [1], [1, 2], [1-3]
  ]
    .map((alternative) => (alternative.startsWith('(?<grokN>') ? String.raw`\[\[` : String.raw`\[`) + alternative)
    .concat(String.raw`【(?<wide>\d{1,4})(?:[:†][^】]{0,40})?】`) // 【1】, 【4:0†source】
    // RAGFlow's [ID:n] and the variants its repair_bad_citation_formats rewrites to it only in
    // the final answer, so a streamed answer may keep them: [ID: 3], (ID: 3), 【ID: 3】.
    .concat(String.raw`[\[(【]ID:\s?(?<ragflow>\d{1,4})[\])】]`)
    .join('|'),
  'g',
);
// OpenRAG's line-terminal tag, as its own stripping regex reads it.
const SOURCES_TAG = /^[ \t]*\[?Sources?\]?[ \t]*:[ \t]*\[?(?<nums>[\d, \t]+)\]?[. \t]*$/gim;
// grok2api's block, as grok2api strips it from history.
const GROK_BLOCK = /(?:^|\r?\n\r?\n)## Sources\r?\n\[grok2api-sources\]: #\r?\n[\s\S]*$/;
const CODE = /```[\s\S]*?(?:```|$)|`[^`\n]+`/g;

/** The markers Open WebUI draws a button for: [1], [1, 2], [1][2], and the [1] of [[1]](url). */
const OPEN_WEBUI_MARKER = /^\[{1,2}\d/;

/** A marker as Open WebUI reads it: whether it draws its own button for it, and the numbers
 * written in it ("[2, 5]" → 2, 5; "[[3]](url)" → 3), which it takes as positions in its own
 * source list. */
export function writtenMarker(marker: string): { drawnByOpenWebui: boolean; numbers: number[] } {
  const numbers = (/\[([^\]]*)\]/.exec(marker)?.[1]?.match(/\d+/g) ?? []).map(Number);
  return { drawnByOpenWebui: OPEN_WEBUI_MARKER.test(marker), numbers };
}

/** Whether a piece of text may hold a marker at all: a cheap test before linkMarkers. */
export const mayHoldMarker = (text: string): boolean => /[[【]|\(ID:/.test(text);

function numbers(list: string): number[] {
  return list.split(',').flatMap((part) => {
    const [from, to] = part.split(/[-–]/).map((n) => Number.parseInt(n.trim(), 10));
    if (to === undefined || Number.isNaN(to)) return [from!];
    // A range: at most 50 numbers, so "[1-9999]" cannot blow up.
    return from! <= to && to - from! < 50 ? Array.from({ length: to - from! + 1 }, (_, i) => from! + i) : [];
  });
}

/** Removes from `spans` those that overlap [start, end), which is hidden: the UI replaces each
 * span's text once, so spans must not overlap. Returns the removed spans. */
function takeOverlapping(spans: MarkerSpan[], start: number, end: number): MarkerSpan[] {
  const taken: MarkerSpan[] = [];
  let kept = 0;
  for (const span of spans) {
    // in place: an answer may hold more markers than a call takes arguments
    if (span.start < end && span.end > start) taken.push(span);
    else spans[kept++] = span;
  }
  spans.length = kept;
  return taken;
}

// Built once per list of citations: the UI reads every text node of an answer against the same list.
const numbersOf = new WeakMap<readonly Citation[], { byRef: Map<number, number>; byUrl: Map<string, number> }>();

/** The citation (its `index`) each producer number and each URL names: the first that has it. */
export function citationNumbers(citations: readonly Citation[]): {
  byRef: Map<number, number>;
  byUrl: Map<string, number>;
} {
  const known = numbersOf.get(citations);
  if (known) return known;
  const byRef = new Map<number, number>();
  const byUrl = new Map<string, number>();
  for (const citation of citations) {
    for (const ref of citation.refs ?? []) if (!byRef.has(ref)) byRef.set(ref, citation.index);
    if (citation.url && !byUrl.has(citation.url)) byUrl.set(citation.url, citation.index);
  }
  numbersOf.set(citations, { byRef, byUrl });
  return { byRef, byUrl };
}

/** `anchors: false`: only what the text itself writes, not the spans producers attach by offset
 * (which index the whole answer, not a piece of it). */
export function linkMarkers(text: string, citations: readonly Citation[], { anchors = true } = {}): MarkerSpan[] {
  if (typeof text !== 'string' || text === '' || !Array.isArray(citations) || citations.length === 0) return [];
  const { byRef, byUrl } = citationNumbers(citations);
  const resolve = (refs: number[], url?: string): number[] => {
    const viaUrl = url ? byUrl.get(safeUrl(url) ?? '') : undefined;
    const found =
      viaUrl !== undefined ? [viaUrl] : refs.map((r) => byRef.get(r)).filter((i): i is number => i !== undefined);
    return [...new Set(found)];
  };

  const code: Array<[number, number]> = [...text.matchAll(CODE)].map((m) => [m.index, m.index + m[0].length]);
  const inCode = (at: number): boolean => code.some(([from, to]) => at >= from && at < to);
  const spans: MarkerSpan[] = [];

  for (const match of text.matchAll(MARKERS)) {
    if (inCode(match.index)) continue;
    const g = match.groups!;
    const indices =
      g.grokN !== undefined
        ? resolve([Number(g.grokN)], g.grokUrl)
        : g.linkN !== undefined
          ? resolve([Number(g.linkN)], g.linkUrl)
          : resolve(numbers(g.doc ?? g.foot ?? g.list ?? g.wide ?? g.ragflow ?? ''));
    if (indices.length) spans.push({ start: match.index, end: match.index + match[0].length, indices, kind: 'marker' });
  }
  for (const match of text.matchAll(SOURCES_TAG)) {
    const indices = resolve(numbers(match.groups!.nums!.replace(/[ \t]+/g, '').replace(/,+$/, '')));
    const end = match.index + match[0].length;
    if (indices.length && !inCode(match.index)) {
      takeOverlapping(spans, match.index, end); // "Sources: [1, 2]": its own marker is hidden with it
      spans.push({ start: match.index, end, indices, kind: 'hide' });
    }
  }
  const footnotes = footnoteBlock(text);
  const listed = footnotes ? [...new Set(footnotes.definitions.flatMap((d) => (d.url ? resolve([], d.url) : [])))] : [];
  if (footnotes && listed.length && !inCode(footnotes.start)) {
    // Jina's "[^n]: quote [title](url)" definitions: our list shows the same sources.
    takeOverlapping(spans, footnotes.start, text.length);
    spans.push({ start: footnotes.start, end: text.length, indices: listed, kind: 'hide' });
  }
  const block = GROK_BLOCK.exec(text);
  if (block) {
    // The block's own markers and "- [title](url)" lines are hidden with it, not linked.
    const listed = takeOverlapping(spans, block.index, text.length).flatMap((s) => s.indices);
    spans.push({ start: block.index, end: text.length, indices: [...new Set(listed)], kind: 'hide' });
  }

  // The spans so far do not overlap: sorted by start, their ends are sorted too, and the one
  // span an anchor may overlap first is found by halving (an answer may hold hundreds of each).
  const taken = spans.sort((a, b) => a.start - b.start || a.end - b.end);
  const firstEndingAfter = (at: number): number => {
    let low = 0;
    let high = taken.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (taken[middle]!.end > at) high = middle;
      else low = middle + 1;
    }
    return low;
  };
  for (const citation of anchors ? citations : []) {
    for (const anchor of citation.anchors ?? []) {
      const span = spanToUtf16(text, anchor.start, anchor.end, anchor.unit);
      if (!span) continue;
      let [from, to] = span;
      while (from < to && /\s/.test(text[from]!)) from++; // grok2api's span starts with a space
      const at = firstEndingAfter(from);
      const other = taken[at];
      if (other && (from === to ? from > other.start : to > other.start)) {
        if (
          !other.indices.includes(citation.index) &&
          other.kind === 'link' &&
          other.start === from &&
          other.end === to
        )
          other.indices.push(citation.index);
        continue;
      }
      const added: MarkerSpan = { start: from, end: to, indices: [citation.index], kind: 'link' };
      taken.splice(at, 0, added); // where it sorts: no sort again at the end
    }
  }
  return taken;
}
