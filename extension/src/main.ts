/**
 * Entry point, run by Open WebUI as /static/loader.js before the app boots: taps the socket
 * and fetch before the app opens them, stores citations, and draws the citation UI. This is the
 * bundle's first part; what only a click needs is loaded on first use (parts/loader.ts).
 */

import { createChatActivity } from './capture/chat-activity.js';
import { createDeclarations, loadAdminDeclarations } from './capture/declarations.js';
import { createDirectRequests } from './capture/direct-requests.js';
import { createEchoFilter } from './capture/echoes.js';
import { routeEvent, routeText } from './capture/events.js';
import { tapFetch } from './capture/fetch.js';
import { createHub } from './capture/hub.js';
import { createPacketReader, tapPolling, tapWebSocket } from './capture/socket.js';
import { watchSources } from './capture/source-warnings.js';
import { DECLARATIONS_KEY } from './core/index.js';
import { guard, offSignal } from './guard.js';
import { INLINE } from './parts/inline.js';
import { messagesFromParts } from './parts/languages.js';
import { createParts, exposeRegister, relayInject, scriptInject } from './parts/loader.js';
import { SHARED } from './parts/shared.js';
import { createChatReader } from './persist/chat-reader.js';
import { startStore } from './persist/store.js';
import { blockFaviconService } from './ui/favicons.js';
import { languageReady, locale, setMessagesLoader } from './ui/i18n.js';
import { startUi } from './ui/index.js';
import type { LazyFeatures } from './ui/lazy.js';

declare const VERSION: string;
declare const PART_NAMES: readonly string[];

declare global {
  interface Window {
    owuiCitations?: { version: string; citations(messageId: string): unknown; view(messageId: string): unknown };
  }
}

// Read as the script runs (null once it ran, and in the browser extension, which runs no script element).
const script = document.currentScript;

guard('boot', () => {
  // Loaded twice (a page that adds the script again): the first copy already taps everything.
  if (window.owuiCitations) return;
  const parts = createParts({
    names: PART_NAMES,
    // loader.js loads its parts beside itself; the browser extension through its background.
    inject: script instanceof HTMLScriptElement && script.src ? scriptInject(script.src) : relayInject(),
    shared: SHARED,
    inline: INLINE,
  });
  exposeRegister(parts);
  const declarations = guard('capture', createDeclarations)();
  const hub = createHub(locale, declarations);
  window.owuiCitations = {
    version: VERSION,
    citations: (messageId: string) => hub.citations(messageId).citations,
    view: (messageId: string) => {
      const view = hub.view(messageId);
      return view && { ...view }; // its citations read, for a caller outside the page
    },
  };
  const direct = createDirectRequests();
  const onEvent = guard('capture', (event: unknown) =>
    routeEvent(hub, event as Parameters<typeof routeEvent>[1], (messageId, chatId, formData) =>
      direct.announce({ messageId, chatId }, formData),
    ),
  );
  const onText = guard('capture', (event: unknown) => routeText(hub, event as Parameters<typeof routeText>[1]));
  const read = createPacketReader(onEvent, onEvent, onText, {
    unread: guard('capture', (messageId: string) => hub.unread(messageId)),
    reconnected: guard('capture', () => hub.reconnected()),
  });
  const capture = offSignal('capture');
  guard('capture', tapWebSocket)(read, createEchoFilter(), capture);
  guard('capture', tapPolling)(read, capture);
  const activity = createChatActivity();
  activity.onAsk(guard('capture', (messageId: string, model: string | null) => hub.asked(messageId, model)));
  const fetch = guard('capture', tapFetch)(hub, direct, activity, capture) ?? window.fetch.bind(window);
  if (declarations) {
    void loadAdminDeclarations(declarations, fetch);
    // This browser's declarations saved, by another tab, or by this page, which then dispatches a
    // StorageEvent with this key itself (a tab gets no storage event of its own writes).
    window.addEventListener(
      'storage',
      guard('capture', (event: StorageEvent) => {
        if (event.key === null || event.key === DECLARATIONS_KEY) declarations.reload();
      }),
    );
  }
  watchSources(hub, (warn) => guard('capture', warn));
  guard('persist', startStore)(hub, fetch, activity);
  // Not the UI's: with the UI off, the sources persist stored still make Open WebUI draw favicons.
  guard('favicons', blockFaviconService)(offSignal('favicons'));
  // In the first part already (the userscript), or loaded on first use.
  const features =
    (parts.loaded('features') as LazyFeatures | undefined) ?? (() => parts.load('features') as Promise<LazyFeatures>);
  setMessagesLoader(messagesFromParts(parts));
  // The page's language in before the first pass draws, so that pass speaks it (English at worst).
  const start = () => void languageReady().then(guard('ui', () => startUi(hub, createChatReader(fetch), features)));
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
})();
