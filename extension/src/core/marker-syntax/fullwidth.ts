/** Full-width brackets (`fullwidth`): 【1】, and OpenAI's file search 【4:0†source】. */

import { listNumbers } from './numbers.js';
import type { MarkerSyntax } from './syntax.js';

export const fullwidth: MarkerSyntax = {
  notation: 'fullwidth',
  group: 'wide',
  pattern: String.raw`【(?<wide>\d{1,4})(?:[:†][^】]{0,40})?】`,
  read: (g) => ({ kind: 'numbers', numbers: listNumbers(g.wide!), unnamed: 'reported' }),
  leads: ['【'],
};
