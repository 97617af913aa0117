import { linkMarkers, mayHoldMarker } from '../../core/index.js';
import { attach, place } from '../attachments.js';
import { buttonsFor, unnamedMark } from '../buttons.js';
import { el } from '../dom.js';
import { LISTS } from './dom-text.js';
import { markerIn, type Pass, PER_STEP } from './pass.js';

/** Subtrees whose text is no marker of the answer's: code, what is hidden, our lists, buttons, links. */
const SKIPPED = `pre, code, .owc-hidden, ${LISTS}, button, a, [contenteditable]`;
// Nodes walked between two steps of the pass (observe.ts cuts a pass into slices between steps).
const WALKED_PER_STEP = 256;

/** Text markers ([1], [doc1], 【1】…) and OpenRAG tags in the text nodes of the answer. */
export function* linkTextMarkers({ message, view: { citations, byIndex } }: Pass, root: Element): Generator<void> {
  // Skipped subtrees are left whole, not each text node's ancestors searched (hundreds of links).
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, (node) =>
    node instanceof Element && node.matches(SKIPPED) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  );
  const nodes: Text[] = [];
  let walked = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node instanceof Text && mayHoldMarker(node.data)) nodes.push(node);
    if (++walked % WALKED_PER_STEP === 0) yield;
  }
  let made = 0; // text nodes read and markers linked: a crafted paragraph holds thousands of markers
  for (const node of nodes) {
    const spans = linkMarkers(node.data, citations, { anchors: false });
    if (spans.length === 0) continue;
    const added: Node[] = [];
    const placed: Array<{ buttons: HTMLButtonElement[]; marks: HTMLElement[]; written: string }> = [];
    let cursor = node;
    let consumed = 0;
    for (const span of spans) {
      const marker = cursor.splitText(span.start - consumed);
      const rest = marker.splitText(span.end - span.start);
      const buttons = span.kind === 'hide' ? [] : buttonsFor(span.indices, byIndex);
      const marks = (span.unnamed ?? []).map(unnamedMark);
      placed.push({ buttons, marks, written: marker.data });
      const replacement =
        span.kind === 'hide' ? [el('span', { class: 'owc-hidden' }, marker.data)] : [...buttons, ...marks];
      marker.replaceWith(...replacement);
      added.push(...replacement, rest);
      cursor = rest;
      consumed = span.end;
      if (++made % PER_STEP === 0) {
        const before = rest.data;
        yield;
        if (rest.data !== before) break; // rewritten by Open WebUI meanwhile: the next pass links it
      }
    }
    const attachment = attach(message, node, added); // once split: the text it keeps is its own
    for (const { buttons, marks, written } of placed) {
      place(attachment, buttons, (view) => markerIn(written, view.citations)?.indices ?? [], {
        marks,
        find: (view) => markerIn(written, view.citations)?.unnamed ?? [],
      });
    }
    if (++made % PER_STEP === 0) yield;
  }
}
