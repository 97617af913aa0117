/** LightRAG's "### References" list closing the answer (references.ts), hidden when our list shows
 * its sources, named by their titles whatever numbers the sources have; its own "[n]" with it. */

import { referenceId, referencesBlock } from '../references.js';
import type { SourceBlockSyntax } from './block.js';

export const lightragReferences: SourceBlockSyntax = {
  find({ text, byId }) {
    const references = referencesBlock(text);
    const named = references?.references.flatMap((r) => byId.get(referenceId(r)) ?? []) ?? [];
    if (!references || named.length === 0) return [];
    const { start, heading } = references;
    return [{ start, end: text.length, indices: [...new Set(named)], heading }];
  },
  isTheList: true,
};
