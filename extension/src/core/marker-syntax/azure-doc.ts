/** Azure OpenAI On Your Data's [doc1]. */

import { listNumbers } from './numbers.js';
import type { MarkerSyntax } from './syntax.js';

export const azureDoc: MarkerSyntax = {
  group: 'doc',
  pattern: String.raw`\[doc(?<doc>\d{1,4})\]`,
  read: (g) => ({ kind: 'numbers', numbers: listNumbers(g.doc!), unnamed: 'reported' }),
  leads: ['[doc'],
};
