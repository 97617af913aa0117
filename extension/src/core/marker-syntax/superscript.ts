/** Superscript digits (`superscript`), ¹²: a run of them is one number (¹² is twelve), after a
 * word of three letters or more or after punctuation: not a power (m², cm³, x²). */

import type { MarkerSyntax } from './syntax.js';

const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';

export const superscript: MarkerSyntax = {
  notation: 'superscript',
  group: 'superscript',
  pattern: String.raw`(?<=[^\s\d¹²³⁰⁴-⁹]{3}|[.,;:!?)\]"'。，；：！？）])(?<superscript>[¹²³⁰⁴-⁹]{1,3})(?![¹²³⁰⁴-⁹])`,
  read: (g) => ({
    kind: 'numbers',
    numbers: [Number([...g.superscript!].map((digit) => SUPERSCRIPT_DIGITS.indexOf(digit)).join(''))],
    unnamed: 'never',
  }),
  leads: [...'¹²³⁰⁴⁵⁶⁷⁸⁹'],
};
