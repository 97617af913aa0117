import { attach, place } from '../attachments.js';
import { buttonsFor } from '../buttons.js';
import { LISTS } from './dom-text.js';
import { markerIn, type Pass, PER_STEP } from './pass.js';

/** A marker written as `<sup>1</sup>` or `<sup>1, 2</sup>`, which Open WebUI draws as a superscript
 * element (a footnote's is `sup.footnote-ref`, linkFootnotes'): it becomes the buttons of the sources
 * it names, found as the core reads the marker; one that names none is left as it is. */
export function* linkSupTags({ message, view: { citations, byIndex } }: Pass, root: Element): Generator<void> {
  let made = 0;
  for (const sup of root.querySelectorAll<HTMLElement>('sup:not(.footnote-ref):not(.owc-hidden)')) {
    if (sup.closest(`.owc-hidden, ${LISTS}, pre, code, a`) || sup.nextElementSibling?.matches('.owc-cite')) continue;
    const written = `<sup>${sup.textContent?.trim() ?? ''}</sup>`;
    const indices = markerIn(written, citations)?.indices ?? [];
    if (indices.length === 0) continue;
    const buttons = buttonsFor(indices, byIndex);
    sup.classList.add('owc-hidden');
    sup.after(...buttons);
    place(attach(message, sup, buttons), buttons, (view) => markerIn(written, view.citations)?.indices ?? []);
    if (++made % PER_STEP === 0) yield;
  }
}
