import { opensFootnoteDefinition } from '../../core/index.js';
import { FOOTNOTE_REF } from '../../host/answers.js';
import { attach, place } from '../attachments.js';
import { citeButton, citing, citingRef } from '../buttons.js';
import { type Pass, PER_STEP } from './pass.js';

/** A footnote mark that opens a definition, `<sup class="footnote-ref">n</sup>: …`, not a citation. */
function isDefinitionMark(sup: Element): boolean {
  let after = sup.nextSibling; // past Svelte's comment anchors, empty text and our own button
  const skipped = (node: Node): boolean =>
    node.nodeType === Node.COMMENT_NODE ||
    (node instanceof Text && node.data.trim() === '') ||
    (node instanceof Element && node.matches('.owc-cite'));
  while (after && skipped(after)) after = after.nextSibling;
  return /^\s*:/.test(after?.textContent ?? '');
}

/** A paragraph that is a footnote definition, `[^n]: …`: as text, or as Open WebUI (0.12) draws
 * its marker, `<sup class="footnote-ref">n</sup>: …`. */
function isFootnoteDefinition(block: Element): boolean {
  const first = block.firstElementChild;
  if (!first?.matches(FOOTNOTE_REF)) return opensFootnoteDefinition(block.textContent ?? '');
  const before = document.createRange();
  before.setStartBefore(block.firstChild!);
  before.setEndBefore(first);
  return before.toString().trim() === '' && isDefinitionMark(first);
}

/** Open WebUI (0.12) draws `[^n]` as `<sup class="footnote-ref">n</sup>`: each becomes our button;
 * the definitions closing the answer are hidden once our list shows their sources. */
export function* linkFootnotes({ message, view }: Pass, root: Element): Generator<void> {
  const { contentSpans } = view;
  const listed = contentSpans.some((s) => s.kind === 'hide' && s.indices.length > 0);
  for (const block of root.querySelectorAll('p:not(.owc-hidden)')) {
    if (listed && isFootnoteDefinition(block)) block.classList.add('owc-hidden');
  }
  let made = 0;
  for (const sup of root.querySelectorAll<HTMLElement>('sup.footnote-ref:not(.owc-hidden)')) {
    if (sup.closest('.owc-hidden') || sup.nextElementSibling?.matches('.owc-cite') || isDefinitionMark(sup)) continue;
    const n = Number(sup.textContent?.trim());
    const citation = citing(view, n);
    if (!citation) continue;
    const button = citeButton(citation);
    sup.classList.add('owc-hidden');
    sup.after(button);
    place(attach(message, sup, [button]), [button], citingRef(n));
    if (++made % PER_STEP === 0) yield;
  }
}
