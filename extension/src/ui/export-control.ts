/** The export control in a source list's head, drawn with the list (in the first part); the
 * files it makes are export.ts's, a part loaded on first use. */

import { el } from './dom.js';
import { t } from './i18n.js';

export type Scope = 'answer' | 'chat';

/** The file formats, by the kind a button names (`data-owc-file`). */
const LABELS = { md: 'Markdown', csl: 'CSL-JSON', bib: 'BibTeX', ris: 'RIS' } as const;
export type FileKind = keyof typeof LABELS;

/** The control: a disclosure of the two scopes' four formats. */
export function exportControl(): HTMLElement {
  const group = (scope: Scope, name: string) =>
    el(
      'div',
      { role: 'group', 'aria-label': name, class: 'owc-export-group' },
      el('span', { class: 'owc-export-scope', 'aria-hidden': 'true' }, name),
      ...Object.entries(LABELS).map(([kind, label]) =>
        el('button', { type: 'button', 'data-owc-scope': scope, 'data-owc-file': kind }, label),
      ),
    );
  return el(
    'details',
    { class: 'owc-export' },
    el('summary', {}, t('exportSources')),
    el('div', { class: 'owc-export-menu' }, group('answer', t('exportAnswer')), group('chat', t('exportChat'))),
  );
}
