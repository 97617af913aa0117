/** LightRAG's "### References" list closing the answer (references.ts), hidden when our list shows
 * its sources, named by their titles whatever numbers the sources have; its own "[n]" with it. */

import { referenceId, referencesBlockSteps } from '../references.js';
import type { SourceBlockSyntax } from './block.js';

export const lightragReferences: SourceBlockSyntax = {
  *find({ text, byId, budget }) {
    const references = yield* referencesBlockSteps(text, budget);
    const named = references?.references.flatMap((r) => byId.get(referenceId(r)) ?? []) ?? [];
    if (!references || named.length === 0) return [];
    const { start, heading } = references;
    return [{ start, end: text.length, indices: [...new Set(named)], heading }];
  },
  isTheList: true,
};
