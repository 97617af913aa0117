/**
 * The lines of a text from its last to its first: what closes an answer (Jina's footnote
 * definitions, LightRAG's references list) is read so, each line once, in time linear in the
 * text whatever it holds. A line ends at "\n"; a "\r" before it is not part of the line.
 */

export interface Line {
  text: string;
  /** UTF-16 offset where the line starts. */
  from: number;
  /** UTF-16 offset where its text ends (before any "\r\n"). */
  to: number;
}

export function* linesFromEnd(text: string): Generator<Line> {
  let end = text.length;
  while (end > 0) {
    const from = text.lastIndexOf('\n', end - 1) + 1;
    const to = text.charCodeAt(end - 1) === 0x0d && end > from ? end - 1 : end;
    yield { text: text.slice(from, to), from, to };
    if (from === 0) return;
    end = from - 1;
  }
}

/** Whether a line holds only blanks. */
export const isBlankLine = (line: string): boolean => line.trim() === '';

/** `text` without the code units at its end that `drop` names, read backwards by hand: a regex
 * such as /[ \t]+$/ tries every position of a run to its end (quadratic in the run). */
export function trimEndWhere(text: string, drop: (code: number) => boolean): string {
  let end = text.length;
  while (end > 0 && drop(text.charCodeAt(end - 1))) end--;
  return text.slice(0, end);
}

/** `text` without the code units at its start that `drop` names. */
export function trimStartWhere(text: string, drop: (code: number) => boolean): string {
  let start = 0;
  while (start < text.length && drop(text.charCodeAt(start))) start++;
  return text.slice(start);
}
