/** The citation UI: applied to each answer on render, opened from buttons by delegation. */

import type { Hub } from '../capture/hub.js';
import { splitCited } from '../core/index.js';
import { guard, onDisable } from '../guard.js';
import { copyAllSources, keepSourcesOnCopy } from './copy.js';
import { fillRetrieved, toggleList } from './list.js';
import { applyToMessage } from './message.js';
import { openModal } from './modal.js';
import { messageId, observeMessages } from './observe.js';
import { hidePreview, showPreview } from './preview.js';
import { restoreOpenWebuiView } from './restore.js';
import { onSettingsChangedElsewhere, saveSettings } from './settings.js';
import { readPanel, togglePanel } from './settings-panel.js';
import { injectStyles } from './styles.js';

const TRIGGERS = '.owc-cite, .owc-source';
const ANSWERS = '[id^="message-"]';

export function startUi(hub: Hub): void {
  // Turned off after an error: its observers, listeners and subscription stop, Open WebUI's view comes back.
  const controller = new AbortController();
  const { signal } = controller;
  onDisable('ui', () => {
    controller.abort();
    restoreOpenWebuiView();
  });
  injectStyles();
  const citationsAt = (trigger: Element) => {
    const message = trigger.closest<HTMLElement>('[id^="message-"]');
    const id = message && messageId(message);
    if (!id) return null;
    const { citations } = hub.citations(id);
    const index = Number(trigger.getAttribute('data-owc-index'));
    const citation = citations.find((c) => c.index === index);
    return citation ? { citations, citation } : null;
  };

  const apply = guard('ui', (message: HTMLElement) => {
    const id = messageId(message);
    const state = id ? hub.get(id) : undefined;
    if (!id || !state) return;
    const { citations } = hub.citations(id);
    applyToMessage(message, id, citations, textOf(id), state.done);
  });
  const textOf = (id: string): string => {
    const state = hub.get(id);
    return state ? state.content || state.accumulator.text() : '';
  };
  const splitOf = (id: string) => splitCited(textOf(id), hub.citations(id).citations);
  const schedule = observeMessages(apply, signal, (message) => {
    const state = hub.get(messageId(message) ?? '');
    if (!state?.live) return 'idle'; // a chat being opened
    return state.done ? 'now' : 'streaming';
  });
  /** Settings apply at once to every answer on the page. */
  const applyAll = () => document.querySelectorAll<HTMLElement>(ANSWERS).forEach((message) => apply(message));

  const unsubscribe = hub.subscribe(
    guard('ui', (state) => {
      const message = document.getElementById(`message-${state.messageId}`);
      if (message) schedule(message);
    }),
  );
  signal.addEventListener('abort', unsubscribe, { once: true });
  keepSourcesOnCopy((id) => splitOf(id).cited, signal);
  onSettingsChangedElsewhere(guard('ui', applyAll), signal);

  document.addEventListener(
    'click',
    guard('ui', (event: MouseEvent) => {
      const target = event.target as Element | null;
      const list = target?.closest?.<HTMLElement>('.owc-sources');
      const listed = list?.closest<HTMLElement>(ANSWERS);
      if (list && listed && target?.closest('.owc-more')) {
        toggleList(list.dataset.owcMessageId ?? '');
        apply(listed);
        return list.querySelector<HTMLElement>('.owc-more')?.focus();
      }
      if (list && target?.closest('.owc-copy-all')) {
        const { cited, retrieved } = splitOf(list.dataset.owcMessageId ?? '');
        return copyAllSources(target.closest<HTMLElement>('.owc-copy-all')!, [...cited, ...retrieved]);
      }
      const toggle = target?.closest?.<HTMLElement>('.owc-settings-toggle');
      if (toggle) return togglePanel(toggle);
      const trigger = target?.closest?.(TRIGGERS);
      const found = trigger && citationsAt(trigger);
      if (!found) return;
      event.preventDefault();
      event.stopPropagation();
      hidePreview();
      openModal(found.citations, found.citation.index, trigger as HTMLElement);
    }),
    { capture: true, signal },
  );

  // `toggle` does not bubble: caught on its way down.
  document.addEventListener(
    'toggle',
    guard('ui', (event: Event) => {
      const group = event.target;
      if (!(group instanceof HTMLDetailsElement) || !group.matches('.owc-retrieved')) return;
      fillRetrieved(group, splitOf(group.dataset.owcMessageId ?? '').retrieved);
    }),
    { capture: true, signal },
  );
  document.addEventListener(
    'change',
    guard('ui', (event: Event) => {
      const panel = (event.target as Element | null)?.closest?.('.owc-settings');
      if (!panel) return;
      saveSettings(readPanel(panel));
      applyAll();
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

  const preview = guard('ui', (event: Event) => {
    const trigger = (event.target as Element | null)?.closest?.('.owc-cite');
    const found = trigger && citationsAt(trigger);
    if (found) showPreview(trigger as HTMLElement, found.citation);
  });
  document.addEventListener('pointerover', preview, { signal });
  document.addEventListener('focusin', preview, { signal });
  const leave = (event: Event) => {
    if ((event.target as Element | null)?.closest?.('.owc-cite')) hidePreview();
  };
  document.addEventListener('pointerout', leave, { signal });
  document.addEventListener('focusout', leave, { signal });
}
