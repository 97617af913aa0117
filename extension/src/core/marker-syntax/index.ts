/**
 * Every marker syntax, in the order they are tried at a position: a link marker before the
 * brackets that would take its "[1]", a footnote's caret form before the footnote. Adding one:
 * a file here, a line below and its example in index.test.ts (and, when a declaration may name it,
 * its name in notations.ts).
 */

import { azureDoc } from './azure-doc.js';
import { brackets, labelledBrackets } from './brackets.js';
import { caretFootnote } from './caret-footnote.js';
import { fastgptCite } from './fastgpt-cite.js';
import { footnote } from './footnote.js';
import { fullwidth } from './fullwidth.js';
import { doubleBracketLink, numberLink, wrappedLink } from './linked-number.js';
import { qianfanCaret } from './qianfan-caret.js';
import { ragflowId } from './ragflow-id.js';
import { supTag } from './sup-tag.js';
import { superscript } from './superscript.js';
import type { MarkerGroups, MarkerReading, MarkerSyntax } from './syntax.js';

export const MARKER_SYNTAXES: readonly MarkerSyntax[] = [
  doubleBracketLink,
  wrappedLink,
  caretFootnote,
  azureDoc,
  footnote,
  numberLink,
  brackets,
  labelledBrackets,
  fullwidth,
  supTag,
  superscript,
  ragflowId,
  fastgptCite,
  qianfanCaret,
];

/** One regex of every syntax, for one pass over a text. */
export const markerPattern = (): RegExp => new RegExp(MARKER_SYNTAXES.map((syntax) => syntax.pattern).join('|'), 'g');

/** The syntax a match of `markerPattern` is written in: the one whose group it matched. */
export function syntaxOf(groups: MarkerGroups): MarkerSyntax | undefined {
  for (const syntax of MARKER_SYNTAXES) if (groups[syntax.group] !== undefined) return syntax;
  return undefined;
}

/** What a match of `markerPattern` says. */
export const readMarker = (groups: MarkerGroups): MarkerReading =>
  syntaxOf(groups)?.read(groups) ?? { kind: 'numbers', numbers: [], unnamed: 'never' };

export type { MarkerGroups, MarkerReading } from './syntax.js';
