/** Answers as Open WebUI drew them, recorded by scripts/record_markup.py, for the UI's tests on its markup. */

import type { AnswerView } from '../src/capture/hub.js';
import * as features from '../src/parts/features.js';
import type { startFeatures } from '../src/ui/index.js';

/** One answer: its element as Open WebUI left it with the extension's UI off, and the hub's view of it. */
export interface RecordedAnswer {
  model: string;
  stream: boolean;
  phase: 'live' | 'reloaded';
  html: string;
  view: AnswerView;
}

/** The UI's features (those the bundle loads as a part too) drawn on the recorded answer from its
 * recorded view, then `check` on its element; the page emptied after. */
export function drawnOn(
  recorded: RecordedAnswer,
  start: typeof startFeatures,
  check: (message: HTMLElement) => void,
): void {
  document.body.innerHTML = recorded.html; // recorded from Open WebUI, as it drew the answer
  const message = document.body.firstElementChild as HTMLElement;
  const turnedOff = new AbortController();
  const hub = { view: () => recorded.view, ids: () => [recorded.view.messageId], subscribe: () => () => {} };
  try {
    start(hub, turnedOff.signal, undefined, undefined, features).apply(message);
    check(message);
  } finally {
    turnedOff.abort();
    document.body.replaceChildren();
  }
}
