/** The hover/focus card of a citation button: title, origin, page, score, first lines. */

import type { Citation } from '../core/index.js';
import { guard } from '../guard.js';
import type { Feature } from './context.js';
import { directionOf, el } from './dom.js';
import { origin, pageText, scoreText } from './present.js';

let card: HTMLElement | null = null;

export function showPreview(anchor: HTMLElement, citation: Citation): void {
  hidePreview();
  const meta = [origin(citation), pageText(citation), scoreText(citation)].filter(Boolean).join(' · ');
  const direction = directionOf(anchor);
  card = el(
    'div',
    { role: 'tooltip', id: 'owc-preview', class: 'owc-preview', dir: direction },
    el('div', { class: 'owc-preview-title' }, citation.title),
    meta && el('div', { class: 'owc-preview-meta' }, meta),
    (citation.snippet ?? citation.quote?.text) &&
      el('div', { class: 'owc-preview-snippet' }, (citation.snippet ?? citation.quote!.text).slice(0, 400)),
  );
  document.body.append(card);
  anchor.setAttribute('aria-describedby', 'owc-preview');
  const box = anchor.getBoundingClientRect();
  const width = card.offsetWidth;
  const height = card.offsetHeight;
  // Its start edge at the button's start edge: the left one, or the right one right to left.
  const start = direction === 'rtl' ? box.right - width : box.left;
  const left = Math.max(8, Math.min(start, window.innerWidth - width - 8));
  const below = box.bottom + 6 + height < window.innerHeight;
  card.style.left = `${left}px`;
  card.style.top = `${below ? box.bottom + 6 : Math.max(8, box.top - height - 6)}px`;
}

export function hidePreview(): void {
  card?.remove();
  card = null;
  document.querySelectorAll('[aria-describedby="owc-preview"]').forEach((e) => e.removeAttribute('aria-describedby'));
}

/** Hovering or focusing a citation button previews its source. */
export const initPreview: Feature = (ui, signal) => {
  const preview = guard('ui', (event: Event) => {
    const trigger = (event.target as Element | null)?.closest?.('.owc-cite');
    const found = trigger && ui.citationAt(trigger);
    if (found) showPreview(trigger as HTMLElement, found.citation);
  });
  document.addEventListener('pointerover', preview, { signal });
  document.addEventListener('focusin', preview, { signal });
  const leave = (event: Event) => {
    if ((event.target as Element | null)?.closest?.('.owc-cite')) hidePreview();
  };
  document.addEventListener('pointerout', leave, { signal });
  document.addEventListener('focusout', leave, { signal });
};
