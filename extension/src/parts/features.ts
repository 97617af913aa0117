/**
 * The part of the bundle that only a click needs (parts/loader.ts loads it on first use): the
 * source modal and the places it steps through, export, the settings panel, "find sources".
 * The first part draws their buttons and holds the clicks on them until this is loaded
 * (ui/lazy.ts).
 */

import type { ChatReader } from '../persist/chat-reader.js';
import type { UiContext } from '../ui/context.js';
import { initExport } from '../ui/export.js';
import { initFindSources, type SourceFinder } from '../ui/find-sources.js';
import { initModal } from '../ui/modal.js';
import { initPlaces } from '../ui/places.js';
import { initSettingsPanel } from '../ui/settings-panel.js';

/** Each feature's listeners, until `signal` ends them. */
export function startFeatures(ui: UiContext, signal: AbortSignal, readChat?: ChatReader, finder?: SourceFinder): void {
  for (const init of [initModal, initPlaces, initSettingsPanel, initExport(readChat), initFindSources(finder)])
    init(ui, signal);
}
