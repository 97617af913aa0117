/** Jina DeepSearch's footnote definitions closing the answer, "[^n]: quote [title](url)" (footnotes.ts):
 * hidden when our list shows a source they link to. */

import { footnoteBlockSteps } from '../footnotes.js';
import type { SourceBlockSyntax } from './block.js';

export const footnoteDefinitions: SourceBlockSyntax = {
  *find({ text, inCode, resolve, budget }) {
    const footnotes = yield* footnoteBlockSteps(text, budget);
    if (!footnotes) return [];
    const listed = [...new Set(footnotes.definitions.flatMap((d) => (d.url ? resolve([], d.url) : [])))];
    return listed.length && !inCode(footnotes.start)
      ? [{ start: footnotes.start, end: text.length, indices: listed }]
      : [];
  },
};
