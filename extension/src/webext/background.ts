/**
 * The extension's background: keeps one registered content script (the bundle) in line with
 * the origins the user granted, on install, on start and whenever a grant changes.
 */

/// <reference types="chrome" />

import { api } from './api.js';
import { pagePatterns, SCRIPT_ID, syncStep } from './patterns.js';

async function sync(): Promise<void> {
  const { origins } = await api.permissions.getAll();
  const registered = await api.scripting.getRegisteredContentScripts({ ids: [SCRIPT_ID] });
  const step = syncStep(registered.length > 0, pagePatterns(origins));
  if (step.action === 'register') await api.scripting.registerContentScripts([step.script]);
  else if (step.action === 'update') await api.scripting.updateContentScripts([step.script]);
  else if (step.action === 'unregister') await api.scripting.unregisterContentScripts({ ids: [SCRIPT_ID] });
}

// Events come together (install, then a grant): one sync at a time, or two would register the same id.
let queue = Promise.resolve();
function resync(): void {
  queue = queue
    .then(sync)
    .catch((error: unknown) => console.error('[owui-citations] content script not updated', error));
}

// Listeners at the top level: the browser wakes the worker for them.
api.runtime.onInstalled.addListener(resync);
api.runtime.onStartup.addListener(resync);
api.permissions.onAdded.addListener(resync);
api.permissions.onRemoved.addListener(resync);
api.action.onClicked.addListener(() => void api.runtime.openOptionsPage());
