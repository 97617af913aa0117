/** grok2api's "## Sources" block closing the answer, marked by its `[grok2api-sources]: #` line:
 * always hidden, its own markers and "- [title](url)" lines with it. */

import type { SourceBlockSyntax } from './block.js';

// As grok2api strips it from history.
const BLOCK = /(?:^|\r?\n\r?\n)## Sources\r?\n\[grok2api-sources\]: #\r?\n[\s\S]*$/;

export const grok2apiSources: SourceBlockSyntax = {
  // One search through the text (a native one, linear): it ends the step if it spent its budget.
  *find({ text, budget }) {
    const block = BLOCK.exec(text);
    if (budget.spend(text.length)) yield;
    return block ? [{ start: block.index, end: text.length, indices: 'cited-inside', heading: 'Sources' }] : [];
  },
};
