/**
 * The source modal: title, safe link, page, score by its kind, the snippet with the verbatim
 * quote highlighted (or a warning when it is not verbatim), previous/next, copy. Escape
 * closes it, focus stays inside while it is open and goes back to the opener after.
 */

import { type Citation, sourceLink } from '../core/index.js';
import { guard } from '../guard.js';
import { MESSAGES } from '../host/answers.js';
import type { Feature } from './context.js';
import { directionOf, el } from './dom.js';
import { t } from './i18n.js';
import { mark, placesOf, startSteps, unmark } from './places.js';
import { citationText, origin, pageText, scoreText } from './present.js';
import { hidePreview } from './preview.js';

let close: (() => void) | null = null;

function snippet(citation: Citation): HTMLElement | null {
  const text = citation.snippet;
  const quote = citation.quote;
  if (!text) return quote ? el('div', { class: 'owc-snippet' }, el('mark', { class: 'owc-quote' }, quote.text)) : null;
  if (quote?.verbatim && quote.start !== null && quote.end !== null) {
    return el(
      'div',
      { class: 'owc-snippet' },
      text.slice(0, quote.start),
      el('mark', { class: 'owc-quote' }, text.slice(quote.start, quote.end)),
      text.slice(quote.end),
    );
  }
  return el('div', { class: 'owc-snippet' }, text);
}

/** "Cited 3 times in this answer", and the control that steps through those places. */
function citedLine(places: readonly HTMLButtonElement[], step: () => void): HTMLElement {
  const count = places.length;
  const words = count === 0 ? t('notCited') : count === 1 ? t('citedOnce') : t('citedTimes', { n: count });
  const show = count ? el('button', { type: 'button', class: 'owc-show-places' }, t('showPlaces')) : null;
  show?.addEventListener('click', step);
  return el('p', { class: 'owc-cited' }, el('span', {}, words), show);
}

function content(
  citations: readonly Citation[],
  position: number,
  go: (position: number) => void,
  cited: HTMLElement,
): HTMLElement {
  const citation = citations[position]!;
  const href = sourceLink(citation);
  const page = pageText(citation);
  const score = scoreText(citation);
  const source = origin(citation);
  const copy = el('button', { type: 'button', class: 'owc-copy' }, t('copy'));
  copy.addEventListener('click', () => {
    void navigator.clipboard?.writeText(citationText(citation)).then(
      () => {
        copy.textContent = t('copied');
      },
      () => {},
    );
  });
  const previous = el(
    'button',
    { type: 'button', class: 'owc-previous', 'aria-label': t('previous'), disabled: position === 0 },
    '‹',
  );
  const next = el(
    'button',
    { type: 'button', class: 'owc-next', 'aria-label': t('next'), disabled: position === citations.length - 1 },
    '›',
  );
  previous.addEventListener('click', () => go(position - 1));
  next.addEventListener('click', () => go(position + 1));
  const closer = el('button', { type: 'button', class: 'owc-close', 'aria-label': t('close') }, '×');
  closer.addEventListener('click', () => close?.());
  return el(
    'div',
    {
      role: 'dialog',
      'aria-modal': 'true',
      'aria-labelledby': 'owc-title',
      class: 'owc-modal',
      'data-owc-index': citation.index,
    },
    el(
      'div',
      { class: 'owc-modal-head' },
      el('h2', { id: 'owc-title', class: 'owc-title' }, `${citation.index}. ${citation.title}`),
      closer,
    ),
    el(
      'div',
      { class: 'owc-facts' },
      source && el('span', { class: 'owc-origin' }, source),
      page && el('span', { class: 'owc-page' }, page),
      score && el('span', { class: 'owc-score' }, score),
    ),
    cited,
    href &&
      el('p', {}, el('a', { class: 'owc-link', href, target: '_blank', rel: 'noopener noreferrer' }, citation.url!)),
    snippet(citation),
    citation.quote?.verbatim === false &&
      el('p', { class: 'owc-not-verbatim', role: 'note' }, t('notVerbatim'), ' ', el('q', {}, citation.quote.text)),
    el(
      'div',
      { class: 'owc-modal-foot' },
      el('span', { class: 'owc-position' }, t('ofTotal', { n: position + 1, total: citations.length })),
      previous,
      next,
      copy,
    ),
  );
}

/** Where focus goes back to: the opener, or, when the answer was redrawn while the modal was open
 * (its sources stored, say), the button of the same kind and number that replaced it. */
function returnTarget(opener: HTMLElement | null): () => HTMLElement | null {
  const messageId = opener?.closest(MESSAGES)?.id;
  const kind = opener?.classList[0];
  const number = opener?.dataset.owcIndex;
  return () => {
    if (opener?.isConnected) return opener;
    if (!messageId || !kind || !number) return null;
    const selector = `button.${CSS.escape(kind)}[data-owc-index="${CSS.escape(number)}"]`;
    return document.getElementById(messageId)?.querySelector<HTMLElement>(selector) ?? null;
  };
}

export function openModal(citations: readonly Citation[], index: number, opener: HTMLElement | null): void {
  close?.();
  const focusTarget = returnTarget(opener);
  const backdrop = el('div', { class: 'owc-backdrop', dir: directionOf(opener) });
  let position = Math.max(
    0,
    citations.findIndex((c) => c.index === index),
  );
  const message = opener?.closest(MESSAGES) ?? null;
  const show = (next: number): void => {
    position = Math.min(Math.max(next, 0), citations.length - 1);
    const places = placesOf(message, citations[position]!.index);
    mark(places);
    const step = (): void => {
      close?.();
      startSteps(places, focusTarget);
    };
    backdrop.replaceChildren(content(citations, position, show, citedLine(places, step)));
    backdrop.querySelector<HTMLElement>('.owc-close')?.focus();
  };
  const onKey = (event: KeyboardEvent): void => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close?.();
    } else if (event.key === 'Tab') {
      const focusable = [...backdrop.querySelectorAll<HTMLElement>('button:not([disabled]), a[href]')];
      const first = focusable[0];
      const last = focusable.at(-1);
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    }
  };
  close = () => {
    unmark();
    document.removeEventListener('keydown', onKey, true);
    backdrop.remove();
    close = null;
    focusTarget()?.focus();
  };
  backdrop.addEventListener('click', (event) => {
    if (event.target === backdrop) close?.();
  });
  document.addEventListener('keydown', onKey, true);
  document.body.append(backdrop);
  show(position);
}

/** A click on a citation button or a listed source opens the modal at that source. */
export const initModal: Feature = (ui, signal) => {
  document.addEventListener(
    'click',
    guard('ui', (event: MouseEvent) => {
      const trigger = (event.target as Element | null)?.closest?.('.owc-cite, .owc-source');
      const found = trigger && ui.citationAt(trigger);
      if (!found) return;
      event.preventDefault();
      event.stopPropagation();
      hidePreview();
      openModal(found.citations, found.citation.index, trigger as HTMLElement);
    }),
    { capture: true, signal },
  );
};
