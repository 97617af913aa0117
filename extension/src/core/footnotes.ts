/**
 * Markdown footnote definitions at the end of an answer, `[^n]: quote [title](url)`, as Jina
 * DeepSearch writes its references. Read from the last line backwards (lines.ts), so the work
 * is linear in the text whatever it holds.
 */

import { isBlankLine, linesFromEnd } from './lines.js';
import { type Budget, finish, type Steps, WHOLE } from './steps.js';

export interface FootnoteDefinition {
  n: number;
  quote: string | null;
  title: string | null;
  url: string | null;
}

export interface FootnoteBlock {
  /** UTF-16 offset where the block of definitions starts (its first line). */
  start: number;
  definitions: FootnoteDefinition[];
}

// "[^n]:", then the rest of the line. Not /^\[\^(\d{1,4})\]:[ \t]*(.*)$/: on a line of blanks ending
// in a character `.` does not take (U+2028), its `[ \t]*` and `.*` share the blanks, a quadratic
// failure. The rest is checked by hand.
const DEFINITION = /^\[\^(\d{1,4})\]:/;
const LINE_BREAK = /[\n\r\u2028\u2029]/;
// The link that ends a definition: [title](url), the title without brackets, the URL without spaces.
const TRAILING_LINK = /\[([^[\]]*)\]\(([^()\s]+)\)[ \t]*$/;

/** Whether a text opens with a footnote definition, `[^n]: …`. */
export const opensFootnoteDefinition = (text: string): boolean =>
  definition(text.trimStart().split('\n', 1)[0]!) !== null;

function definition(line: string): FootnoteDefinition | null {
  const match = DEFINITION.exec(line);
  if (!match) return null;
  let start = match[0].length;
  while (line[start] === ' ' || line[start] === '\t') start++;
  const rest = line.slice(start);
  if (LINE_BREAK.test(rest)) return null; // what `.` does not take
  const link = TRAILING_LINK.exec(rest);
  const quote = (link ? rest.slice(0, link.index) : rest).trim();
  return { n: Number(match[1]), quote: quote || null, title: link?.[1]?.trim() || null, url: link?.[2] ?? null };
}

/** The definitions that close the text (blank lines between them allowed), or null. */
export const footnoteBlock = (text: string): FootnoteBlock | null => finish(footnoteBlockSteps(text, WHOLE));

/** footnoteBlock in steps (steps.ts), spending a line's length on each line read. */
export function* footnoteBlockSteps(text: string, budget: Budget): Steps<FootnoteBlock | null> {
  if (typeof text !== 'string' || !text.includes('[^')) return null;
  const definitions: FootnoteDefinition[] = [];
  let start = text.length;
  for (const line of linesFromEnd(text)) {
    if (budget.spend(line.text.length + 1)) yield;
    if (isBlankLine(line.text)) continue;
    const found = definition(line.text);
    if (!found) break;
    definitions.push(found);
    start = line.from;
  }
  return definitions.length ? { start, definitions: definitions.reverse() } : null;
}
