/** The citation UI: applied to each answer on render, opened from buttons by delegation. */

import type { Hub } from '../capture/hub.js';
import { guard, onDisable } from '../guard.js';
import { hidePreview, showPreview } from './preview.js';
import { toggleList } from './list.js';
import { applyToMessage } from './message.js';
import { openModal } from './modal.js';
import { messageId, observeMessages } from './observe.js';
import { restoreOpenWebuiView } from './restore.js';
import { injectStyles } from './styles.js';

const TRIGGERS = '.owc-cite, .owc-source';

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
    applyToMessage(message, id, citations, state.content || state.accumulator.text(), state.done);
  });
  const schedule = observeMessages(apply, signal, (message) => {
    const state = hub.get(messageId(message) ?? '');
    if (!state?.live) return 'idle'; // a chat being opened
    return state.done ? 'now' : 'streaming';
  });

  const unsubscribe = hub.subscribe(guard('ui', (state) => {
    const message = document.getElementById(`message-${state.messageId}`);
    if (message) schedule(message);
  }));
  signal.addEventListener('abort', unsubscribe, { once: true });

  document.addEventListener('click', guard('ui', (event: MouseEvent) => {
    const list = (event.target as Element | null)?.closest?.('.owc-more')?.closest<HTMLElement>('.owc-sources');
    const listed = list?.closest<HTMLElement>('[id^="message-"]');
    if (list && listed) {
      toggleList(list.dataset.owcMessageId ?? '');
      list.remove();
      return apply(listed);
    }
    const trigger = (event.target as Element | null)?.closest?.(TRIGGERS);
    const found = trigger && citationsAt(trigger);
    if (!found) return;
    event.preventDefault();
    event.stopPropagation();
    hidePreview();
    openModal(found.citations, found.citation.index, trigger as HTMLElement);
  }), { capture: true, signal });

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
