/** RAGFlow's [ID:n], and the variants its repair_bad_citation_formats rewrites to it only in the
 * final answer, so a streamed answer may keep them: [ID: 3], (ID: 3), 【ID: 3】. */

import { listNumbers } from './numbers.js';
import type { MarkerSyntax } from './syntax.js';

export const ragflowId: MarkerSyntax = {
  group: 'ragflow',
  pattern: String.raw`[\[(【]ID:\s?(?<ragflow>\d{1,4})[\])】]`,
  read: (g) => ({ kind: 'numbers', numbers: listNumbers(g.ragflow!), unnamed: 'reported' }),
  leads: ['ID:'],
};
