/** An HTML superscript (`sup-tag`): <sup>1</sup>, <sup>1, 2</sup>. */

import { listNumbers, NUMBER_LIST } from './numbers.js';
import type { MarkerSyntax } from './syntax.js';

export const supTag: MarkerSyntax = {
  notation: 'sup-tag',
  group: 'supTag',
  pattern: `<sup>(?<supTag>${NUMBER_LIST})</sup>`,
  read: (g) => ({ kind: 'numbers', numbers: listNumbers(g.supTag!), unnamed: 'in-range' }),
  leads: ['<sup>'],
};
