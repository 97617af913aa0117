/** The settings under a source list's ⚙ button: a small form, each change applied at once to
 * every answer on the page (ui/index.ts, by delegation). */

import { guard } from '../guard.js';
import type { Feature } from './context.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { type Settings, SHOWN_CHOICES, saveSettings, settings } from './settings.js';

export function settingsPanel(id: string): HTMLElement {
  const current = settings();
  return el(
    'div',
    { class: 'owc-settings', id, role: 'group', 'aria-label': t('settings'), hidden: true },
    el(
      'label',
      {},
      el('span', {}, t('settingShown')),
      ' ',
      el(
        'select',
        { name: 'shown' },
        ...SHOWN_CHOICES.map((n) =>
          el('option', { value: n, selected: n === current.shown }, n === 0 ? t('settingAll') : String(n)),
        ),
      ),
    ),
    el(
      'label',
      {},
      el('input', { type: 'checkbox', name: 'showRetrieved', checked: current.showRetrieved }),
      ' ',
      t('settingRetrieved'),
    ),
    el(
      'label',
      {},
      el('input', { type: 'checkbox', name: 'keepOpenWebuiStrip', checked: current.keepOpenWebuiStrip }),
      ' ',
      t('settingStrip'),
    ),
  );
}

/** The settings a panel's controls hold. */
export function readPanel(panel: Element): Partial<Settings> {
  const value = (name: string) => panel.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`);
  const shown = Number(value('shown')?.value);
  return {
    ...(Number.isInteger(shown) ? { shown } : {}),
    showRetrieved: (value('showRetrieved') as HTMLInputElement | null)?.checked ?? settings().showRetrieved,
    keepOpenWebuiStrip:
      (value('keepOpenWebuiStrip') as HTMLInputElement | null)?.checked ?? settings().keepOpenWebuiStrip,
  };
}

/** Shows or hides a list's panel; its controls show the settings as they are now. */
export function togglePanel(toggle: HTMLElement, open = toggle.getAttribute('aria-expanded') !== 'true'): void {
  const panel = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
  if (!panel) return;
  if (open) panel.replaceWith(settingsPanel(panel.id));
  const shown = document.getElementById(panel.id)!;
  shown.hidden = !open;
  toggle.setAttribute('aria-expanded', String(open));
  if (open) shown.querySelector<HTMLElement>('select')?.focus();
}

/** The settings panel: opened and closed from its toggle (Escape closes it), each change saved and
 * applied at once to every answer (a change made in another tab is ui/index.ts's, in the first part). */
export const initSettingsPanel: Feature = (ui, signal) => {
  document.addEventListener(
    'click',
    guard('ui', (event: MouseEvent) => {
      const toggle = (event.target as Element | null)?.closest?.<HTMLElement>('.owc-settings-toggle');
      if (toggle) togglePanel(toggle);
    }),
    { capture: true, signal },
  );
  document.addEventListener(
    'change',
    guard('ui', (event: Event) => {
      const panel = (event.target as Element | null)?.closest?.('.owc-settings');
      if (!panel) return;
      saveSettings(readPanel(panel));
      ui.applyAll();
    }),
    { signal },
  );
  document.addEventListener(
    'keydown',
    guard('ui', (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return; // every key typed in the page comes here: nothing else looked up
      const panel = (event.target as Element | null)?.closest?.('.owc-settings');
      const toggle = panel && document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(panel.id)}"]`);
      if (!toggle) return;
      event.stopPropagation();
      togglePanel(toggle, false);
      toggle.focus();
    }),
    { signal },
  );
};
