/** OpenRAG's line-terminal tag, "[Sources: 1, 3]" or "Sources: [1, 2].": each hidden when its numbers
 * name sources shown, its own marker with it. */

import { listNumbers } from '../marker-syntax/numbers.js';
import { eachMatchSteps } from '../matches.js';
import { type Budget, finish, type Steps, WHOLE } from '../steps.js';
import type { HiddenBlock, SourceBlockSyntax } from './block.js';

// Read as OpenRAG's own stripping regex reads it:
// /^[ \t]*\[?Sources?\]?[ \t]*:[ \t]*\[?([\d, \t]+)\]?[. \t]*$/im. Not with that regex: three of its
// quantifiers take blanks one after the other, so a line of blanks that fails at its end takes cubic
// time (2,000 blanks: seconds). Its prefix is found by a regex whose adjacent quantifiers cannot take
// the same characters, and the rest of the line is read by hand.
const SOURCES_PREFIX = /^[ \t]*\[?sources?\]?[ \t]*:/gim;

const code = (text: string, at: number): number => text.charCodeAt(at); // NaN past the end
const isBlank = (c: number): boolean => c === 0x20 || c === 0x09;
const isLineEnd = (c: number): boolean => Number.isNaN(c) || c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;

export interface SourcesTag {
  start: number;
  end: number;
  /** The tag's list as OpenRAG's regex captures it, blanks and tabs left out. */
  list: string;
}

/** The lines OpenRAG's regex matches, each read once from its prefix on: the regex's matches, their
 * list as it captures it (blanks aside), in linear time. */
export const sourcesTags = (text: string): SourcesTag[] => finish(sourcesTagSteps(text, WHOLE));

/** sourcesTags in steps (../steps.ts): what a tag's line reads is spent with the next one's search. */
function* sourcesTagSteps(text: string, budget: Budget): Steps<SourcesTag[]> {
  const tags: SourcesTag[] = [];
  yield* eachMatchSteps(SOURCES_PREFIX, text, budget, (prefix) => {
    const colon = prefix.index + prefix[0].length;
    let at = colon;
    while (isBlank(code(text, at))) at++;
    const blanks = at > colon;
    const bracket = code(text, at) === 0x5b; // [
    if (bracket) at++;
    const from = at;
    for (let c = code(text, at); (c >= 0x30 && c <= 0x39) || c === 0x2c || isBlank(c); c = code(text, ++at));
    // No list after them: the regex takes the last blanks as its list (which holds no number).
    if (at === from && (bracket || !blanks)) return;
    const list = text.slice(from, at);
    if (code(text, at) === 0x5d) at++; // ]
    for (let c = code(text, at); c === 0x2e || isBlank(c); c = code(text, ++at));
    if (isLineEnd(code(text, at))) tags.push({ start: prefix.index, end: at, list: list.replace(/[ \t]+/g, '') });
  });
  return tags;
}

/** The numbers of a tag's list: its trailing commas dropped, by hand (`/,+$/` is quadratic on a
 * run of commas followed by a digit). */
function tagNumbers(list: string): number[] {
  let end = list.length;
  while (end > 0 && list.charCodeAt(end - 1) === 0x2c) end--;
  return listNumbers(list.slice(0, end));
}

export const openragTags: SourceBlockSyntax = {
  *find({ text, inCode, resolve, budget }) {
    const hidden: HiddenBlock[] = [];
    for (const tag of yield* sourcesTagSteps(text, budget)) {
      const indices = resolve(tagNumbers(tag.list));
      if (indices.length && !inCode(tag.start)) hidden.push({ start: tag.start, end: tag.end, indices });
    }
    return hidden;
  },
};
