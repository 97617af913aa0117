/**
 * The extension's background: keeps the registered content scripts (the bundle and its relay) in
 * line with the origins the user granted, on install, on start and whenever a grant changes; and
 * runs a part of the bundle in the page's world of the frame whose relay asks for it (relay.ts).
 */

/// <reference types="chrome" />

import { partFile } from '../parts/loader.js';
import { api } from './api.js';
import { pagePatterns, RELAY_ID, requestedPart, SCRIPT_ID, syncSteps } from './patterns.js';

declare const PART_NAMES: readonly string[];

async function sync(): Promise<void> {
  const { origins } = await api.permissions.getAll();
  const registered = await api.scripting.getRegisteredContentScripts({ ids: [SCRIPT_ID, RELAY_ID] });
  const steps = syncSteps(
    registered.map((script) => script.id),
    pagePatterns(origins),
  );
  if (steps.unregister.length) await api.scripting.unregisterContentScripts({ ids: steps.unregister });
  if (steps.update.length) await api.scripting.updateContentScripts(steps.update);
  if (steps.register.length) await api.scripting.registerContentScripts(steps.register);
}

// Events come together (install, then a grant): one sync at a time, or two would register the same id.
let queue = Promise.resolve();
function resync(): void {
  queue = queue
    .then(sync)
    .catch((error: unknown) => console.error('[owui-citations] content script not updated', error));
}

/** Runs the part asked for in the asking frame, in the page's world (where the bundle is, which it
 * registers with), from the extension's own files; answers whether it ran. */
function runPart(message: unknown, sender: chrome.runtime.MessageSender, respond: (ran: boolean) => void): boolean {
  const part = requestedPart(message, PART_NAMES);
  const tabId = sender.tab?.id;
  if (!part || tabId === undefined || sender.id !== api.runtime.id) return false;
  api.scripting
    .executeScript({ target: { tabId, frameIds: [sender.frameId ?? 0] }, world: 'MAIN', files: [partFile(part)] })
    .then(
      () => respond(true),
      (error: unknown) => {
        console.warn(`[owui-citations] part ${part} not run`, error);
        respond(false);
      },
    );
  return true; // the answer comes later
}

// Listeners at the top level: the browser wakes the worker for them.
api.runtime.onInstalled.addListener(resync);
api.runtime.onStartup.addListener(resync);
api.permissions.onAdded.addListener(resync);
api.permissions.onRemoved.addListener(resync);
api.action.onClicked.addListener(() => void api.runtime.openOptionsPage());
api.runtime.onMessage.addListener(runPart);
