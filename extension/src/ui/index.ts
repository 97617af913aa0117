/** The citation UI: applied to each answer on render; each feature's listeners in its own file. */

import type { Hub } from '../capture/hub.js';
import { splitCited } from '../core/index.js';
import { guard, guardSteps, offSignal, onDisable } from '../guard.js';
import { MESSAGES, messageElement, messageId } from '../host/answers.js';
import type { ChatReader } from '../persist/chat-reader.js';
import { initChatDownload } from './chat-download.js';
import type { Feature, UiContext } from './context.js';
import { initCopy } from './copy.js';
import type { SourceFinder } from './find-sources.js';
import { type FeaturesSource, startLazyFeatures } from './lazy.js';
import { initList } from './list.js';
import { passOver } from './message.js';
import { observeMessages } from './observe.js';
import { initPreview } from './preview.js';
import { restoreOpenWebuiView } from './restore.js';
import { onSettingsChangedElsewhere } from './settings.js';
import { injectStyles } from './styles.js';

/** The features of the first part; the others are a part of their own (lazy.ts). */
const FEATURES: readonly Feature[] = [
  initPreview,
  initList,
  initCopy,
  initChatDownload,
  // A setting changed in another tab: every answer drawn again.
  (ui, signal) => onSettingsChangedElsewhere(guard('ui', ui.applyAll), signal),
];

/** `readChat`: the stored chat, for the whole chat's export (persist/chat-reader.ts); `features`:
 * the features only a click needs, or what loads them (lazy.ts). */
export function startUi(hub: Hub, readChat: ChatReader | undefined, features: FeaturesSource): void {
  // Turned off after an error: its observers, listeners and subscription stop, Open WebUI's view comes back.
  const signal = offSignal('ui');
  onDisable('ui', restoreOpenWebuiView);
  injectStyles();
  startFeatures(hub, signal, readChat, hub, features);
}

type Answers = Pick<Hub, 'view' | 'ids' | 'subscribe'>;

/** The answers drawn as the hub changes, and each feature's listeners, until `signal` ends them.
 * `finder`: what "Find sources in this response" reads of an answer (find-sources.ts); `features`:
 * those only a click needs (none when not given). */
export function startFeatures(
  hub: Answers,
  signal: AbortSignal,
  readChat?: ChatReader,
  finder?: SourceFinder,
  features?: FeaturesSource,
): UiContext {
  const ui = answersOnThePage(hub, signal);
  for (const init of FEATURES) init(ui, signal);
  if (features) startLazyFeatures(ui, signal, features, hub, readChat, finder);
  return ui;
}

/** Each answer drawn as the hub's state of it changes (at once when finished, throttled while it
 * streams, in idle time while a chat opens), and what the features read of it. */
function answersOnThePage(hub: Answers, signal: AbortSignal): UiContext {
  const viewOf = (message: HTMLElement) => hub.view(messageId(message) ?? '');
  const passes = (message: HTMLElement) => {
    const view = viewOf(message);
    return view ? guardSteps('ui', passOver(message, view)) : undefined;
  };
  // The whole pass at once: the user asked for it (show all, a setting changed).
  const apply = (message: HTMLElement): void => {
    const pass = passes(message);
    while (pass && !pass.next().done);
  };
  const schedule = observeMessages(passes, signal, (message) => {
    const view = viewOf(message);
    if (!view?.live) return 'idle'; // a chat being opened
    return view.done ? 'now' : 'streaming';
  });
  const unsubscribe = hub.subscribe(
    guard('ui', (state) => {
      const message = messageElement(state.messageId);
      if (message) schedule(message);
    }),
  );
  signal.addEventListener('abort', unsubscribe, { once: true });
  const citationsOf = (id: string) => hub.view(id)?.citations ?? [];
  return {
    citationAt(trigger) {
      const message = trigger.closest<HTMLElement>(MESSAGES);
      const id = message && messageId(message);
      if (!id) return null;
      const citations = citationsOf(id);
      const index = Number(trigger.getAttribute('data-owc-index'));
      const citation = citations.find((c) => c.index === index);
      return citation ? { citations, citation } : null;
    },
    split: (id) => {
      const view = hub.view(id);
      return view ? splitCited(view.text, view.citations) : { cited: [], retrieved: [] };
    },
    answerIds: () => hub.ids(),
    answer: (id) => {
      const view = hub.view(id);
      return view ? { question: null, text: view.text, citations: view.citations } : null;
    },
    apply: (message) => apply(message),
    applyAll: () => document.querySelectorAll<HTMLElement>(MESSAGES).forEach((message) => apply(message)),
  };
}
