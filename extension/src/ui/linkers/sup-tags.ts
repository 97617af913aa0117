import { linkMarkers } from '../../core/index.js';
import { attach, place } from '../attachments.js';
import { buttonsFor } from '../buttons.js';
import { hideRange, LISTS, textNodes } from './dom-text.js';
import { markerIn, type Pass, PER_STEP } from './pass.js';

/** How a `<sup>n</sup>` marker's buttons find their sources again. */
const supIndices = (written: string) => (view: Pass['view']) => markerIn(written, view.citations)?.indices ?? [];

/**
 * A marker written as `<sup>1</sup>` or `<sup>1, 2</sup>` becomes the buttons of the sources it
 * names, found as the core reads it; one that names none is left as it is. In a chat, Open WebUI
 * shows inline HTML as text, one text node a token (`<sup>`, `1`, `</sup>`), so the marker is found
 * in the block's joined text; where it draws the tag (a document), as a superscript element (a
 * footnote's, `sup.footnote-ref`, is linkFootnotes').
 */
export function* linkSupTags({ message, view }: Pass, root: Element): Generator<void> {
  let made = 0;
  for (const block of root.querySelectorAll('p, li, h1, h2, h3, h4, h5, h6, td')) {
    if (!block.textContent?.includes('</sup>') || block.closest(`.owc-hidden, ${LISTS}`)) continue;
    const nodes = textNodes(block);
    const text = nodes.map(({ node }) => node.data).join('');
    const markers = linkMarkers(text, view.citations, { anchors: false }).filter(
      (s) => s.kind === 'marker' && text.startsWith('<sup>', s.start),
    );
    for (const span of markers.reverse()) {
      // from the end: earlier offsets stay valid
      const at = hideRange(message, nodes, span.start, span.end);
      if (!at) continue;
      const buttons = buttonsFor(span.indices, view.byIndex);
      at.after(...buttons);
      place(attach(message, at, buttons), buttons, supIndices(text.slice(span.start, span.end)));
    }
    if (++made % PER_STEP === 0) yield;
  }
  for (const sup of root.querySelectorAll<HTMLElement>('sup:not(.footnote-ref):not(.owc-hidden)')) {
    if (sup.closest(`.owc-hidden, ${LISTS}, pre, code, a`) || sup.nextElementSibling?.matches('.owc-cite')) continue;
    const written = `<sup>${sup.textContent?.trim() ?? ''}</sup>`;
    const indices = markerIn(written, view.citations)?.indices ?? [];
    if (indices.length === 0) continue;
    const buttons = buttonsFor(indices, view.byIndex);
    sup.classList.add('owc-hidden');
    sup.after(...buttons);
    place(attach(message, sup, buttons), buttons, supIndices(written));
    if (++made % PER_STEP === 0) yield;
  }
}
