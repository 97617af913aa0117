/** The citation UI: applied to each answer on render; each feature's listeners in its own file. */

import type { Hub } from '../capture/hub.js';
import { splitCited } from '../core/index.js';
import { guard, onDisable } from '../guard.js';
import type { Feature, UiContext } from './context.js';
import { initCopy } from './copy.js';
import { initList } from './list.js';
import { applyToMessage } from './message.js';
import { initModal } from './modal.js';
import { messageId, observeMessages } from './observe.js';
import { initPreview } from './preview.js';
import { restoreOpenWebuiView } from './restore.js';
import { initSettingsPanel } from './settings-panel.js';
import { injectStyles } from './styles.js';

const FEATURES: readonly Feature[] = [initModal, initPreview, initList, initCopy, initSettingsPanel];
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
  const ui = answersOnThePage(hub, signal);
  for (const init of FEATURES) init(ui, signal);
}

/** Each answer drawn as the hub's state of it changes (at once when finished, throttled while it
 * streams, in idle time while a chat opens), and what the features read of it. */
function answersOnThePage(hub: Hub, signal: AbortSignal): UiContext {
  const textOf = (id: string): string => {
    const state = hub.get(id);
    return state ? state.content || state.accumulator.text() : '';
  };
  const apply = guard('ui', (message: HTMLElement) => {
    const id = messageId(message);
    const state = id ? hub.get(id) : undefined;
    if (!id || !state) return;
    applyToMessage(message, id, hub.citations(id).citations, textOf(id), state.done);
  });
  const schedule = observeMessages(apply, signal, (message) => {
    const state = hub.get(messageId(message) ?? '');
    if (!state?.live) return 'idle'; // a chat being opened
    return state.done ? 'now' : 'streaming';
  });
  const unsubscribe = hub.subscribe(
    guard('ui', (state) => {
      const message = document.getElementById(`message-${state.messageId}`);
      if (message) schedule(message);
    }),
  );
  signal.addEventListener('abort', unsubscribe, { once: true });
  return {
    citationAt(trigger) {
      const message = trigger.closest<HTMLElement>(ANSWERS);
      const id = message && messageId(message);
      if (!id) return null;
      const { citations } = hub.citations(id);
      const index = Number(trigger.getAttribute('data-owc-index'));
      const citation = citations.find((c) => c.index === index);
      return citation ? { citations, citation } : null;
    },
    split: (id) => splitCited(textOf(id), hub.citations(id).citations),
    apply: (message) => apply(message),
    applyAll: () => document.querySelectorAll<HTMLElement>(ANSWERS).forEach((message) => apply(message)),
  };
}
