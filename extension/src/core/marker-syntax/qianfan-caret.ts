/** Baidu Qianfan's ^[1]^ and ^[1][2]^, of at most MAX_RANGE brackets: a longer run reads as the
 * plain [n] it holds. */

import { bracketedNumbers, MAX_RANGE } from './numbers.js';
import type { MarkerSyntax } from './syntax.js';

export const qianfanCaret: MarkerSyntax = {
  group: 'caret',
  pattern: String.raw`\^(?<caret>(?:\[\d{1,4}\]){1,${MAX_RANGE}})\^`,
  read: (g) => ({ kind: 'numbers', numbers: bracketedNumbers(g.caret!), unnamed: 'in-range' }),
  leads: ['^['],
  // Open WebUI draws its brackets, [1][2], as one button between the carets.
  drawnByOpenWebui: (marker) =>
    /^\^\[\d/.test(marker) ? { drawnByOpenWebui: true, numbers: bracketedNumbers(marker) } : undefined,
};
