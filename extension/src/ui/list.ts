/** The de-duplicated source list under an answer: the first five, and "show all N". */

import type { Citation } from '../core/index.js';
import { keepLast } from '../bounded.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { origin, pageText } from './present.js';

const SHOWN = 5;
const expanded = new Set<string>();

/** "Show all" or "show fewer" for a message's list (its button is handled by delegation, ui/index.ts:
 * a listener per list would keep every answer's citations for as long as Open WebUI keeps its DOM). */
export function toggleList(messageId: string): void {
  if (expanded.has(messageId)) expanded.delete(messageId);
  else keepLast(expanded.add(messageId), 100);
}

export function sourceList(messageId: string, citations: readonly Citation[]): HTMLElement {
  const open = expanded.has(messageId) || citations.length <= SHOWN;
  const items = (open ? citations : citations.slice(0, SHOWN)).map((citation) =>
    el('li', {},
      el('button', { type: 'button', class: 'owc-source', 'data-owc-index': citation.index, 'aria-label': t('source', { n: citation.index, title: citation.title }) },
        el('span', { class: 'owc-source-number' }, String(citation.index)),
        el('span', { class: 'owc-source-title' }, citation.title),
        el('span', { class: 'owc-source-meta' }, [origin(citation), pageText(citation)].filter(Boolean).join(' · ')))));
  const more = citations.length > SHOWN
    ? el('button', { type: 'button', class: 'owc-more', 'aria-expanded': String(open) }, open ? t('showFewer') : t('showAll', { n: citations.length }))
    : null;
  return el('section', { class: 'owc-sources', 'data-owc-message-id': messageId, 'data-owc-count': citations.length, 'aria-label': t('sources') },
    el('div', { class: 'owc-sources-title' }, t('sources')),
    el('ol', {}, ...items),
    more);
}
