/**
 * The references list that closes a LightRAG answer. LightRAG sends no source field: its prompts
 * (HKUDS/LightRAG lightrag/prompt.py, `rag_response` and `naive_rag_response`) have the model end
 * the answer with one, which this reads back:
 * - since 058ce83d (1.4.9), under `### References`, one line per document, `- [n] Document Title`
 *   or `* [n] Document Title`: the title is the file path LightRAG listed to the model as
 *   `[n] file_path` (operate.py), n its reference_id, which a `[n]` in the answer cites;
 * - from 8d7a7e4a (1.4.7), under a "References" section, `[KG] <entity_name>`,
 *   `[KG] <entity1_name> ~ <entity2_name>` (a relation) and `[DC] <file_path_or_document_name>`;
 *   from 87fbffde (1.3.0), `[KG/DC] file_path`, so that a `[KG]` line may name a file too.
 * Read from the last line backwards (lines.ts): linear in the text. Strict, so that an ordinary
 * answer is not read as one: the list closes the answer (blank lines aside), each of its lines is
 * a reference or continues the one above it (a list item's lazy continuation, as markdown reads
 * it), a "References" heading stands right above it, and no code fence is open there.
 */

import { isBlankLine, linesFromEnd } from './lines.js';
import { type Budget, finish, type Steps, WHOLE } from './steps.js';

export interface Reference {
  /** `[n]`: the number the answer's markers cite; null on a `[KG]` or `[DC]` line. */
  n: number | null;
  /** A knowledge-graph entity or relation (`KG`), a document chunk's file (`DC`); null on an `[n]` line. */
  tag: 'KG' | 'DC' | null;
  /** What follows the bracket, with the lines that continue it, trimmed. */
  title: string;
}

export interface ReferencesBlock {
  /** UTF-16 offset where the heading's line starts: the block runs from there to the end of the text. */
  start: number;
  /** The heading as it reads on screen: "References", "References:". */
  heading: string;
  references: Reference[];
}

// A plain "[n]" is a reference number in the range markers.ts reads one in: "[2024]" is a year.
const MAX_NUMBER = 999;
// `[n]` (with the caret LightRAG's prompt tells the model not to write), `[KG]` or `[DC]`, read
// where a list item's text starts.
const REFERENCE_MARK = /\[(?:\^?(?<n>\d{1,4})|(?<tag>KG|DC))\]/y;
// "### References", "**References**", "References:": the heading LightRAG asks for, and the section
// its older prompts named, as models write them. Matched on the trimmed line.
const HEADING = /^(?:#{1,6}[ \t]+)?(?:\*\*|__)?(?<name>references)(?<colon>:?)(?:\*\*|__)?(?<after>:?)$/i;
// A fenced code block's opening or closing line: up to three spaces, three backticks or tildes or more.
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

const isBlank = (c: number): boolean => c === 0x20 || c === 0x09;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** Where a list item's text starts in a line: after its indent, its bullet (- * +) or number
 * ("1." "1)") and the blanks after it; after the indent alone when it has neither. */
function itemTextStart(line: string): number {
  let at = 0;
  while (isBlank(line.charCodeAt(at))) at++;
  const first = line.charCodeAt(at);
  let marker = at;
  if (first === 0x2d || first === 0x2a || first === 0x2b) marker = at + 1;
  else {
    let digit = at;
    while (digit - at < 9 && isDigit(line.charCodeAt(digit))) digit++;
    const after = line.charCodeAt(digit);
    if (digit > at && (after === 0x2e || after === 0x29)) marker = digit + 1;
  }
  if (marker === at || !isBlank(line.charCodeAt(marker))) return at;
  at = marker;
  while (isBlank(line.charCodeAt(at))) at++;
  return at;
}

/** A reference line's number or tag, and where its title starts in the line; null for any other line. */
function referenceLine(line: string): { n: number | null; tag: Reference['tag']; titleFrom: number } | null {
  REFERENCE_MARK.lastIndex = itemTextStart(line);
  const mark = REFERENCE_MARK.exec(line);
  const titleFrom = REFERENCE_MARK.lastIndex;
  if (!mark || (titleFrom < line.length && !isBlank(line.charCodeAt(titleFrom)))) return null;
  const n = mark.groups!.n === undefined ? null : Number(mark.groups!.n);
  if (n !== null && (n < 1 || n > MAX_NUMBER)) return null;
  return { n, tag: (mark.groups!.tag as Reference['tag']) ?? null, titleFrom };
}

/** Whether a code fence opened above `at` (a line's start) is still open there. */
function inFence(text: string, at: number): boolean {
  let open: string | null = null;
  for (let from = 0; from < at; ) {
    const newline = text.indexOf('\n', from);
    const to = newline < 0 || newline > at ? at : newline;
    const line = text.slice(from, to);
    const fence = FENCE.exec(line);
    const run = fence?.[1];
    if (run && open === null) open = run;
    else if (run && run[0] === open![0] && run.length >= open!.length && isBlankLine(line.slice(fence![0].length)))
      open = null; // a closing fence: the opening one's character, as many or more, nothing after them
    from = to + 1;
  }
  return open !== null;
}

/** The references list closing the text, or null. */
export const referencesBlock = (text: string): ReferencesBlock | null => finish(referencesBlockSteps(text, WHOLE));

/** referencesBlock in steps (steps.ts), spending a line's length on each line read. */
export function* referencesBlockSteps(text: string, budget: Budget): Steps<ReferencesBlock | null> {
  if (typeof text !== 'string' || !/references/i.test(text)) return null;
  const references: Reference[] = [];
  // Where the lines continuing a reference end, while the reference line above them is not yet read.
  let continuedTo = -1;
  for (const line of linesFromEnd(text)) {
    if (budget.spend(line.text.length + 1)) yield;
    if (isBlankLine(line.text)) {
      if (continuedTo >= 0) return null; // a paragraph after the list, not part of it
      continue;
    }
    const reference = referenceLine(line.text);
    if (reference) {
      const title = text.slice(line.from + reference.titleFrom, continuedTo >= 0 ? continuedTo : line.to).trim();
      if (title) references.push({ n: reference.n, tag: reference.tag, title });
      continuedTo = -1;
      continue;
    }
    const heading = HEADING.exec(line.text.trim());
    if (heading) {
      if (continuedTo >= 0 || references.length === 0 || inFence(text, line.from)) return null;
      const { name, colon, after } = heading.groups!;
      return { start: line.from, heading: `${name}${colon || after}`, references: references.reverse() };
    }
    if (continuedTo < 0) continuedTo = line.to; // continues the reference above it, if one is
  }
  return null;
}

/** The identity of a reference's source: its title, a file path naming one document whatever its
 * number; a `[KG]` one's tagged, so that an entity and a file of the same name stay two. */
export const referenceId = (reference: Reference): string =>
  reference.tag === 'KG' ? `[KG] ${reference.title}` : reference.title;
