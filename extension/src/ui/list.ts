/**
 * The source list under an answer: the sources its text cites, the first few and "show all N",
 * with "copy all sources" and the settings; after it, the sources retrieved but not cited, in a
 * collapsed group of their own. Redrawn in place (its body only), so that a control keeps focus.
 */

import { keepLast } from '../bounded.js';
import type { Citation } from '../core/index.js';
import { guard } from '../guard.js';
import { MESSAGES } from '../host/answers.js';
import type { Feature } from './context.js';
import { el } from './dom.js';
import { exportControl } from './export-control.js';
import { t } from './i18n.js';
import { origin, pageText } from './present.js';
import { settings } from './settings.js';

const expanded = new Set<string>();

/** "Show all" or "show fewer" for a message's list (its button is handled by delegation, ui/index.ts:
 * a listener per list would keep every answer's citations for as long as Open WebUI keeps its DOM). */
export function toggleList(messageId: string): void {
  if (expanded.has(messageId)) expanded.delete(messageId);
  else keepLast(expanded.add(messageId), 100);
}

const sourceButton = (citation: Citation): HTMLElement =>
  el(
    'li',
    {},
    // Named by what it shows (number, title, origin, page), as a spoken command finds it.
    el(
      'button',
      { type: 'button', class: 'owc-source', 'data-owc-index': citation.index },
      el('span', { class: 'owc-source-number' }, String(citation.index)),
      el('span', { class: 'owc-source-title' }, citation.title),
      el('span', { class: 'owc-source-meta' }, [origin(citation), pageText(citation)].filter(Boolean).join(' · ')),
    ),
  );

/** What decides how a message's list looks: drawn again when it differs. */
export const listKey = (
  messageId: string,
  cited: readonly Citation[],
  retrieved: readonly Citation[],
  settingsKey: string,
): string => `${cited.length}/${retrieved.length}/${expanded.has(messageId)}/${settingsKey}`;

function listBody(messageId: string, cited: readonly Citation[]): HTMLElement {
  const limit = settings().shown || Infinity;
  const open = expanded.has(messageId) || cited.length <= limit;
  const more =
    cited.length > limit
      ? el(
          'button',
          { type: 'button', class: 'owc-more', 'aria-expanded': String(open) },
          open ? t('showFewer') : t('showAll', { n: cited.length }),
        )
      : null;
  return el(
    'div',
    { class: 'owc-sources-body' },
    el('ol', {}, ...(open ? cited : cited.slice(0, limit)).map(sourceButton)),
    more,
  );
}

/** Draws the list of `cited`, or redraws the body of the one given. */
export function sourceList(
  messageId: string,
  cited: readonly Citation[],
  key: string,
  existing?: HTMLElement | null,
): HTMLElement {
  const body = listBody(messageId, cited);
  if (existing) {
    // A redraw (the sources stored, say) keeps the keyboard where it was: on the same source's button.
    const focused = existing.contains(document.activeElement) ? (document.activeElement as HTMLElement) : null;
    existing.querySelector('.owc-sources-body')?.replaceWith(body);
    const number = focused?.dataset.owcIndex;
    if (number) body.querySelector<HTMLElement>(`button[data-owc-index="${CSS.escape(number)}"]`)?.focus();
    existing.dataset.owcKey = key;
    existing.dataset.owcCount = String(cited.length);
    return existing;
  }
  const panelId = `owc-settings-${messageId}`;
  return el(
    'section',
    {
      class: 'owc-sources',
      'data-owc-message-id': messageId,
      'data-owc-count': cited.length,
      'data-owc-key': key,
      'aria-label': t('sources'),
    },
    el(
      'div',
      { class: 'owc-sources-head' },
      el('div', { class: 'owc-sources-title' }, t('sources')),
      el('button', { type: 'button', class: 'owc-copy-all' }, t('copyAll')),
      exportControl(),
      el(
        'button',
        {
          type: 'button',
          class: 'owc-settings-toggle',
          'aria-expanded': 'false',
          'aria-controls': panelId,
          'aria-label': t('settings'),
          title: t('settings'),
        },
        '⚙',
      ),
    ),
    // Filled when it opens (settings-panel.ts, a part loaded on first use).
    el('div', { class: 'owc-settings', id: panelId, hidden: true }),
    body,
  );
}

/** Why a finished answer shows no source though it may have had some (hub.ts says when): its
 * sources could not be read, or the connection dropped while it came in. Never for an answer
 * that simply has none. */
export type Missing = 'unreadable' | 'interrupted' | null;

/** Where the list would be, one line saying why the answer's sources are missing, while they are. */
export function noteMissing(container: Element, messageId: string, missing: Missing): void {
  const existing = container.querySelector<HTMLElement>(`.owc-missing[data-owc-message-id="${CSS.escape(messageId)}"]`);
  if (existing?.dataset.owcMissing === missing) return;
  existing?.remove();
  if (missing) {
    const attributes = { class: 'owc-missing', 'data-owc-message-id': messageId, 'data-owc-missing': missing };
    container.append(el('p', attributes, t(missing)));
  }
}

/** The sources retrieved but not cited, collapsed under "N more retrieved, not cited"; their rows
 * are built when the group opens (a search can return hundreds that are never looked at). */
export function retrievedList(messageId: string, retrieved: readonly Citation[], open: boolean): HTMLElement {
  return el(
    'details',
    { class: 'owc-retrieved', 'data-owc-message-id': messageId, 'data-owc-count': retrieved.length, open },
    el('summary', {}, t('retrieved', { n: retrieved.length })),
    el('ol', {}, ...(open ? retrieved.map(sourceButton) : [])),
  );
}

/** Builds the rows of a retrieved group once it is opened. */
export function fillRetrieved(group: HTMLDetailsElement, retrieved: readonly Citation[]): void {
  const rows = group.querySelector('ol');
  if (group.open && rows && rows.childElementCount === 0) rows.append(...retrieved.map(sourceButton));
}

/** "Show all" in a list; the retrieved sources, drawn when their group is opened. */
export const initList: Feature = (ui, signal) => {
  document.addEventListener(
    'click',
    guard('ui', (event: MouseEvent) => {
      const target = event.target as Element | null;
      const list = target?.closest?.<HTMLElement>('.owc-sources');
      const listed = list?.closest<HTMLElement>(MESSAGES);
      if (!list || !listed || !target?.closest('.owc-more')) return;
      toggleList(list.dataset.owcMessageId ?? '');
      ui.apply(listed);
      list.querySelector<HTMLElement>('.owc-more')?.focus();
    }),
    { capture: true, signal },
  );
  // `toggle` does not bubble: caught on its way down.
  document.addEventListener(
    'toggle',
    guard('ui', (event: Event) => {
      const group = event.target;
      if (!(group instanceof HTMLDetailsElement) || !group.matches('.owc-retrieved')) return;
      fillRetrieved(group, ui.split(group.dataset.owcMessageId ?? '').retrieved);
    }),
    { capture: true, signal },
  );
};
