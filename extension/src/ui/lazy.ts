/**
 * The features only a click needs (parts/features.ts) come as a part loaded on first use: fetched
 * when the page is idle after the first answer with sources, or when the pointer or the keyboard
 * reaches one of our controls. A click on a control before the part is there is held, and given
 * again to the control once it is (nothing else acts on our controls); if the part cannot be
 * loaded, the click does nothing, the loader warns, and the next click tries again.
 */

import type { Hub } from '../capture/hub.js';
import { guard } from '../guard.js';
import { whenIdle } from '../idle.js';
import type * as Features from '../parts/features.js';
import type { ChatReader } from '../persist/chat-reader.js';
import type { UiContext } from './context.js';
import type { SourceFinder } from './find-sources.js';

export type LazyFeatures = typeof Features;
/** The features, or what loads them. */
export type FeaturesSource = LazyFeatures | (() => Promise<LazyFeatures>);

/** The controls whose click needs the part: the modal's, the settings', export's formats, find sources. */
const NEEDS_PART = '.owc-cite, .owc-source, .owc-settings-toggle, .owc-export button[data-owc-file], .owc-find-sources';
// Pointer or focus on these: a click may come, the part is fetched.
const HINTS = '.owc-sources, .owc-cite, .owc-find-sources';
// The idle wait after an answer with sources, at most.
const PREFETCH_IDLE_MS = 3_000;

export function startLazyFeatures(
  ui: UiContext,
  signal: AbortSignal,
  source: FeaturesSource,
  answers: Pick<Hub, 'subscribe' | 'view'>,
  readChat?: ChatReader,
  finder?: SourceFinder,
): void {
  let started = false;
  let hovered: Element | null = null;
  const start = (features: LazyFeatures): void => {
    if (started || signal.aborted) return;
    started = true;
    features.startFeatures(ui, signal, readChat, finder);
    // What the pointer or focus reached before the part came (a source row's marks): told again.
    if (hovered?.isConnected && hovered.matches(':hover')) {
      hovered.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
    }
    const focused = document.activeElement;
    if (focused?.closest(HINTS)) focused.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
  };
  if (typeof source !== 'function') {
    start(source);
    return;
  }
  const startGuarded = guard('ui', start);
  const load = (): Promise<LazyFeatures> =>
    source().then((features) => {
      startGuarded(features);
      return features;
    });
  // Fetched once ahead of a click; a click that finds it failed tries again.
  let fetched = false;
  const prefetch = (): void => {
    if (fetched || started) return;
    fetched = true;
    load().catch(() => undefined); // the loader warned
  };

  document.addEventListener(
    'click',
    guard('ui', (event: MouseEvent) => {
      if (started) return;
      const control = (event.target as Element | null)?.closest?.<HTMLElement>(NEEDS_PART);
      if (!control) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      load().then(
        guard('ui', () => {
          if (started && control.isConnected) control.click();
        }),
        () => undefined, // the loader warned; Open WebUI's page is as it was
      );
    }),
    { capture: true, signal },
  );
  const hinted = guard('ui', (event: Event) => {
    if (started) return;
    const target = event.target as Element | null;
    if (!target?.closest?.(HINTS)) return;
    if (event.type === 'pointerover') hovered = target;
    if (!fetched) prefetch();
  });
  document.addEventListener('pointerover', hinted, { signal });
  document.addEventListener('focusin', hinted, { signal });
  const unsubscribe = answers.subscribe(
    guard('ui', (state) => {
      if (fetched || started || !answers.view(state.messageId)?.citations.length) return;
      unsubscribe();
      whenIdle(prefetch, PREFETCH_IDLE_MS);
    }),
  );
  signal.addEventListener('abort', unsubscribe, { once: true });
}
