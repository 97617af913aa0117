/** Square brackets (`brackets`): [1], [1, 2], [1-3]; and a number after a label, as backends no
 * format knows write it: [ref_1], [citation:2], [cite: 1, 3]. Not a link's text "[1](" nor a
 * reference definition "[1]:". */

import { listNumbers, NUMBER_LIST } from './numbers.js';
import type { MarkerSyntax } from './syntax.js';

export const brackets: MarkerSyntax = {
  notation: 'brackets',
  group: 'list',
  pattern: String.raw`\[(?<list>${NUMBER_LIST})\](?![(:])`,
  read: (g) => ({ kind: 'numbers', numbers: listNumbers(g.list!), unnamed: 'in-range' }),
  leads: ['['],
};

export const labelledBrackets: MarkerSyntax = {
  group: 'labelled',
  pattern: String.raw`\[(?:ref_|ref:\s?|citation:\s?|cite:\s?|source:\s?)(?<labelled>${NUMBER_LIST})\](?![(:])`,
  read: (g) => ({ kind: 'numbers', numbers: listNumbers(g.labelled!), unnamed: 'reported' }),
  leads: ['['],
};
