/** A markdown footnote mark, [^1] (`footnote`), not a footnote's definition "[^1]:". */

import { listNumbers } from './numbers.js';
import type { MarkerSyntax } from './syntax.js';

export const footnote: MarkerSyntax = {
  notation: 'footnote',
  group: 'foot',
  pattern: String.raw`\[\^(?<foot>\d{1,4})\](?!:)`,
  read: (g) => ({ kind: 'numbers', numbers: listNumbers(g.foot!), unnamed: 'footnote' }),
  leads: ['[^'],
};
