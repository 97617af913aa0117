import { attach } from '../attachments.js';
import { unnamedMark } from '../buttons.js';
import { screenText } from './dom-text.js';
import type { Pass } from './pass.js';

// Each lookup may read the answer's text again: a crafted answer of thousands of such markers
// gets marks for its first ones only.
const MAX_UNNAMED_LOOKUPS = 64;

/** Markers none of whose numbers names a source, where Open WebUI draws nothing for them (once
 * the answer has sources, it draws only the numbers its list has): a muted mark for each number
 * goes after the text the marker followed. Where the marker still reads as text, linkTextMarkers
 * marks it. */
export function* markUnnamedRuns({ message, content, runs }: Pass, root: Element): Generator<void> {
  if (runs.every((run) => run.indices.length > 0)) return;
  const endOf = screenText(root);
  const marked = new Set(
    [...message.querySelectorAll<HTMLElement>('.owc-unnamed[data-owc-at]')].map((m) => m.dataset.owcAt),
  );
  let from = 0;
  let looked = 0;
  for (const run of runs) {
    // The text on its line before the marker, up to the marker before it.
    let lineStart = run.start;
    while (lineStart > from && content.charCodeAt(lineStart - 1) !== 0x0a) lineStart--;
    const before = content.slice(lineStart, run.start);
    from = run.end;
    if (run.indices.length || marked.has(String(run.start))) continue;
    if (++looked > MAX_UNNAMED_LOOKUPS) return;
    const at = endOf(before, content.slice(run.start, run.end)); // still text: linkTextMarkers marks it
    if (!at) continue;
    const marks = run.unnamed.map(unnamedMark);
    marks.forEach((mark) => mark.setAttribute('data-owc-at', String(run.start)));
    at.rest.before(...marks);
    attach(message, at.holder, [...marks, at.rest]);
    yield;
  }
}
