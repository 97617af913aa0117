/** The numbered citation button, the muted mark of a number that names no source, and which
 * citation a producer's reference number stands for (the core's byRef, as the view carries it). */

import type { Citation } from '../core/index.js';
import type { View } from './attachments.js';
import { el } from './dom.js';
import { t } from './i18n.js';

export function showCitation(button: HTMLButtonElement, citation: Citation): HTMLButtonElement {
  button.setAttribute('data-owc-index', String(citation.index));
  button.setAttribute('aria-label', t('source', { n: citation.index, title: citation.title }));
  button.textContent = String(citation.index);
  return button;
}

let citeTemplate: HTMLButtonElement | undefined; // copied: an answer may need hundreds
export function citeButton(citation: Citation): HTMLButtonElement {
  citeTemplate ??= el('button', { type: 'button', class: 'owc-cite' });
  return showCitation(citeTemplate.cloneNode() as HTMLButtonElement, citation);
}

/** A number the text cites that names no source the backend sent: shown muted, not clickable,
 * rather than as a raw "[7]" or not at all (Open WebUI draws nothing for it). */
export const unnamedMark = (n: number): HTMLElement =>
  el('span', { class: 'owc-unnamed', title: t('unnamed', { n }), 'data-owc-unnamed': n }, String(n));

export const citedBy = (indices: number[], byIndex: Map<number, Citation>): Citation[] =>
  indices.map((i) => byIndex.get(i)).filter((c): c is Citation => !!c);

export const buttonsFor = (indices: number[], byIndex: Map<number, Citation>): HTMLButtonElement[] =>
  citedBy(indices, byIndex).map(citeButton);

/** The citation a producer's reference number n (a footnote, a tag) stands for. */
export const citing = (view: View, n: number): Citation | undefined => view.byIndex.get(view.byRef.get(n) ?? 0);
export const asIndices = (citation: Citation | undefined): number[] => (citation ? [citation.index] : []);
export const citingRef = (n: number) => (view: View) => asIndices(citing(view, n));
