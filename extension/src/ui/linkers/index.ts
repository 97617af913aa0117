/**
 * The linkers: each finds one kind of citation in a finished answer's rendered text and puts our
 * buttons there (or hides what our list replaces). They run in this order over each prose block:
 * a later one skips what an earlier one marked (hidden, or followed by our button). Each is a
 * generator: it yields after each piece of work, where the pass may be cut (observe.ts).
 */

import { linkAnchors, linkIdAnchors } from './anchors.js';
import { linkFootnotes } from './footnotes.js';
import { replaceNativeButtons } from './native-buttons.js';
import type { Pass } from './pass.js';
import { linkPlainSpans } from './plain-spans.js';
import { hideSourcesBlock } from './sources-block.js';
import { linkSupTags } from './sup-tags.js';
import { linkTags } from './tags.js';
import { hideTextLists } from './text-lists.js';
import { linkTextMarkers } from './text-markers.js';
import { markUnnamedRuns } from './unnamed.js';

export { openWebuiRuns, type Pass } from './pass.js';

export const LINKERS: ReadonlyArray<(pass: Pass, root: Element) => Iterable<void>> = [
  linkTags,
  hideSourcesBlock,
  hideTextLists,
  linkFootnotes,
  linkSupTags,
  linkAnchors,
  linkIdAnchors,
  replaceNativeButtons,
  markUnnamedRuns,
  linkTextMarkers,
  linkPlainSpans,
];
