/** Bing's and Kimi's [^1^] (`caret-footnote`). */

import { listNumbers } from './numbers.js';
import type { MarkerSyntax } from './syntax.js';

export const caretFootnote: MarkerSyntax = {
  notation: 'caret-footnote',
  group: 'caretFoot',
  pattern: String.raw`\[\^(?<caretFoot>\d{1,4})\^\]`,
  read: (g) => ({ kind: 'numbers', numbers: listNumbers(g.caretFoot!), unnamed: 'reported' }),
  leads: ['[^'],
};
