/** What one pass over a finished answer links against: the answer's element, its markdown, the
 * view of its citations, and the marker runs Open WebUI draws buttons for. */

import { type Citation, linkMarkers, type MarkerSpan, writtenMarker } from '../../core/index.js';
import type { View } from '../attachments.js';

/** Links made between two steps of a pass: each step costs the pass a resumption (observe.ts). */
export const PER_STEP = 16;

export interface Pass {
  message: Element;
  content: string;
  view: View;
  runs: readonly Run[];
}

/** Markers Open WebUI reads as citations, adjacent ones ([1][2]) as one run, as it draws them. */
export interface Run {
  start: number;
  end: number;
  written: number[];
  indices: number[];
  unnamed: number[];
}

// Markers read into runs between two steps.
const RUNS_STEP = 512;

/** The runs of the answer's markers, in steps. */
export function* openWebuiRuns(content: string, contentSpans: readonly MarkerSpan[]): Generator<void, Run[]> {
  const runs: Run[] = [];
  for (const [i, span] of contentSpans.entries()) {
    if (i % RUNS_STEP === RUNS_STEP - 1) yield; // an answer may have tens of thousands of markers
    const marker = content.slice(span.start, span.end);
    const { drawnByOpenWebui, numbers: written } = writtenMarker(marker);
    if (span.kind !== 'marker' || !drawnByOpenWebui) continue;
    const last = runs.at(-1);
    if (last && last.end === span.start) {
      last.written.push(...written);
      last.indices.push(...span.indices);
      last.unnamed.push(...(span.unnamed ?? []));
      last.end = span.end;
    } else {
      const { start, end, indices, unnamed = [] } = span;
      runs.push({ start, end, written, indices: [...indices], unnamed: [...unnamed] });
    }
  }
  return runs;
}

/** The marker a piece of written text is, read as the core reads it against these citations: how a
 * placed button finds its sources again when the citations change. */
export const markerIn = (written: string, citations: readonly Citation[]): MarkerSpan | undefined =>
  linkMarkers(written, citations, { anchors: false }).find((s) => s.kind === 'marker');
