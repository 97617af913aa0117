/**
 * The answer's markdown links, by target: Writer's `[Handbook.pdf](7b1e4c2a-…)` names a document
 * its sources carry only by an id.
 */

// `[text](target)`: a text without brackets or line breaks, a target without parentheses or blanks,
// each of bounded length (classes that exclude the next delimiter: no backtracking across a link).
const LINK = /\[([^[\]\n]{1,200})\]\(([^()\s]{1,200})\)/g;
// Targets read at most, whatever the answer's length.
const MAX_LINKS = 1000;

/** Each link target, with the text of its first link. */
export function linkNames(answer: string | null): Map<string, string> {
  const names = new Map<string, string>();
  if (answer === null) return names;
  for (const [, text, target] of answer.matchAll(LINK)) {
    if (names.size >= MAX_LINKS) break;
    const name = text!.trim();
    if (name !== '' && !names.has(target!)) names.set(target!, name);
  }
  return names;
}
