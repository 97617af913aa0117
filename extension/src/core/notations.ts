/**
 * The notations an answer may write its citation markers in, by name: what a declared backend
 * chooses from (never a pattern from outside) and what the generic reader recognises.
 */
export const NOTATIONS = {
  brackets: '[1], [1, 2], [1][2]',
  'caret-footnote': '[^1^] (Bing, Kimi)',
  footnote: '[^1]',
  fullwidth: '【1】, 【1†source】',
  superscript: '¹²',
  'sup-tag': '<sup>1</sup>',
  'linked-number': '[1](url), [[1](url)]',
} as const;

export type Notation = keyof typeof NOTATIONS;

export const isNotation = (name: unknown): name is Notation =>
  typeof name === 'string' && Object.hasOwn(NOTATIONS, name);
