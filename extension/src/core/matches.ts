/** Reading a text by a regex, fast. */

import { type Budget, finish, type Steps, WHOLE } from './steps.js';

/** Each match of a global regex, in order, to `found`. By exec: matchAll makes each match (named
 * groups and all) several times slower, which tens of thousands of markers add up to. */
export const eachMatch = (regex: RegExp, text: string, found: (match: RegExpExecArray) => boolean | undefined): void =>
  finish(eachMatchSteps(regex, text, WHOLE, found));

/** eachMatch in steps (steps.ts), spending on each match the characters its search went past since
 * the last one; `found` returning false ends the search. The regex's place is set before each search,
 * so that passes in steps sharing a regex do not disturb each other. */
export function* eachMatchSteps(
  regex: RegExp,
  text: string,
  budget: Budget,
  found: (match: RegExpExecArray) => boolean | undefined,
): Steps<void> {
  let read = 0;
  for (let at = 0; at <= text.length; ) {
    regex.lastIndex = at;
    const match = regex.exec(text);
    if (!match) return;
    at = match[0] === '' ? regex.lastIndex + 1 : regex.lastIndex;
    const end = match.index + match[0].length;
    if (budget.spend(Math.max(1, end - read))) yield;
    read = end;
    if (found(match) === false) return;
  }
}
