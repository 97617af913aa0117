/**
 * The answer's markdown links, by target: Writer's `[Handbook.pdf](7b1e4c2a-…)` names a document
 * its sources carry only by an id (generic.ts reads the name, markers.ts makes the link a marker).
 */

import { eachMatchSteps } from '../matches.js';
import { type Budget, finish, type Steps, WHOLE } from '../steps.js';

// `[text](target)`: a text without brackets or line breaks, a target without parentheses or blanks,
// each of bounded length (classes that exclude the next delimiter: no backtracking across a link).
const LINK = /\[([^[\]\n]{1,200})\]\(([^()\s]{1,200})\)/g;
// Links read at most, whatever the answer's length.
const MAX_LINKS = 1000;

export interface MarkdownLink {
  start: number;
  end: number;
  /** The link's text, trimmed. */
  text: string;
  target: string;
}

/** The answer's links whose text is not blank, in order, at most MAX_LINKS. */
export const markdownLinks = (answer: string): MarkdownLink[] => finish(markdownLinkSteps(answer, WHOLE));

/** markdownLinks in steps (../steps.ts), spending what each search advanced. */
export function* markdownLinkSteps(answer: string, budget: Budget): Steps<MarkdownLink[]> {
  const links: MarkdownLink[] = [];
  yield* eachMatchSteps(LINK, answer, budget, (match) => {
    const text = match[1]!.trim();
    if (text !== '') links.push({ start: match.index, end: match.index + match[0].length, text, target: match[2]! });
    return links.length < MAX_LINKS;
  });
  return links;
}

/** Each link target, with the text of its first link, in steps (../steps.ts). */
export function* linkNameSteps(answer: string | null, budget: Budget): Steps<Map<string, string>> {
  const names = new Map<string, string>();
  for (const { text, target } of answer === null ? [] : yield* markdownLinkSteps(answer, budget))
    if (!names.has(target)) names.set(target, text);
  return names;
}
