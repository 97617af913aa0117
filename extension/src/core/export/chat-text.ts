/**
 * A question's or answer's text as the whole-chat Markdown export writes it. The text keeps its
 * Markdown, but every footnote in the file is the export's own: the text can neither define one
 * (markdown-it keeps a label's last definition, GFM its first: either way a forged one would win
 * somewhere), nor reference one, nor turn the export's references into links of its own; and no
 * block the text leaves open (a code fence, an HTML comment) swallows what the export writes after
 * it. Read in one pass over the lines and one over the characters: linear whatever the text holds.
 */

/** Where the export put its own references (`[^n]`) into the text. */
export interface Span {
  start: number;
  end: number;
}

const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CARET = 0x5e;
const BACKTICK = 0x60;
const TILDE = 0x7e;
const LESS_THAN = 0x3c;
const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;
// What may follow a reference and make it something else: "[^1]:" a definition, "[^1](url)" and
// "[^1][label]" links (a viewer reads links before footnotes).
const CAPTURING = new Set([0x3a, 0x28, OPEN_BRACKET]);
// A link label is matched after trimming whitespace (markdown-it trims as JavaScript does), so
// "[ ^1]: https://…" would define a link that every "[^1]" of the export then opens.
const WHITESPACE = /\s/;
// HTML blocks that end only at their own end mark, not at a blank line (CommonMark's types 1 to 5).
const RAW_HTML_BLOCKS: readonly { start: RegExp; ends: readonly string[] }[] = [
  { start: /^<(script|pre|style|textarea)(?=[\s>]|$)/i, ends: ['</script>', '</pre>', '</style>', '</textarea>'] },
  { start: /^<!--/, ends: ['-->'] },
  { start: /^<\?/, ends: ['?>'] },
  { start: /^<![a-z]/i, ends: ['>'] },
  { start: /^<!\[CDATA\[/, ends: [']]>'] },
];

const isBlank = (c: number): boolean => c === SPACE || c === TAB;

interface Fence {
  char: number;
  length: number;
  /** Columns before the opening line's fence. */
  indent: number;
  /** Opened at the margin outside any HTML block: every viewer reads it as code until it closes. */
  certain: boolean;
}

/** How a text's blocks are left at its end, and the spans every viewer reads as code. */
interface Blocks {
  code: Span[];
  /** Lines that close what the text left open, or ''. */
  closing: string;
}

/** The run of three or more backticks or tildes at `at`, or null. */
function fenceRun(text: string, at: number, to: number): { char: number; length: number } | null {
  const char = text.charCodeAt(at);
  if (char !== BACKTICK && char !== TILDE) return null;
  let end = at;
  while (end < to && text.charCodeAt(end) === char) end++;
  return end - at >= 3 ? { char, length: end - at } : null;
}

const holds = (text: string, from: number, to: number, code: number): boolean => {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === code) return true;
  return false;
};
const blankFrom = (text: string, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) if (!isBlank(text.charCodeAt(i))) return false;
  return true;
};

/**
 * The fenced code blocks as CommonMark reads them, line by line. Only what every viewer agrees on
 * counts as code (text inside it is left as written): a fence opened at the margin, outside any
 * HTML block. A fence opened indented may be a list item's, which ends with the item; a fence line
 * right after HTML is code to one viewer and HTML to another. After such a line the state at the
 * end is not known, and the text is closed by lines that leave every state closed.
 */
function readBlocks(text: string): Blocks {
  const code: Span[] = [];
  let fence: Fence | null = null;
  let codeFrom = 0;
  let uncertain = false;
  let html: (typeof RAW_HTML_BLOCKS)[number] | null = null;
  let htmlUntilBlank = false;
  let longestBackticks = 0;
  let longestTildes = 0;
  for (let from = 0; from <= text.length; ) {
    let to = from;
    while (to < text.length && text.charCodeAt(to) !== LF && text.charCodeAt(to) !== CR) to++;
    const next = text.charCodeAt(to) === CR && text.charCodeAt(to + 1) === LF ? to + 2 : to + 1;
    let at = from;
    let columns = 0;
    for (; at < to && isBlank(text.charCodeAt(at)); at++)
      columns = text.charCodeAt(at) === TAB ? columns + 4 - (columns % 4) : columns + 1;
    const blank = at === to;
    const inHtml = html !== null;
    const run = columns <= 3 ? fenceRun(text, at, to) : null;
    if (run) {
      if (run.char === BACKTICK) longestBackticks = Math.max(longestBackticks, run.length);
      else longestTildes = Math.max(longestTildes, run.length);
    }
    if (fence) {
      if (!fence.certain && !blank && columns < fence.indent) uncertain = true; // a list item may end here
      if (run && run.char === fence.char && run.length >= fence.length && blankFrom(text, at + run.length, to)) {
        if (fence.certain) code.push({ start: codeFrom, end: from });
        fence = null;
      } else if (!fence.certain && columns > 3 && columns <= fence.indent + 3 && fenceRun(text, at, to))
        uncertain = true; // closes a list item's fence, not one at the margin
    } else if (blank) htmlUntilBlank = false;
    else if (run && (run.char === TILDE || !holds(text, at + run.length, to, BACKTICK))) {
      if (inHtml || htmlUntilBlank) uncertain = true;
      fence = { char: run.char, length: run.length, indent: columns, certain: columns === 0 && !uncertain };
      codeFrom = next;
    }
    // The line holding an HTML block's end mark is still the block's: its fence was no fence.
    if (html) {
      const line = text.slice(from, to).toLowerCase();
      if (html.ends.some((end) => line.includes(end))) html = null;
    }
    // Any "<" may start an HTML block (to a viewer that reads HTML): one that ends at a blank line,
    // or one that ends only at its end mark, after its start (which may come after a line that
    // only seemed to start one). Once the fences' state is not known, in what seems a fence too.
    if (!inHtml && !blank && columns <= 3 && text.charCodeAt(at) === LESS_THAN && (!fence || uncertain)) {
      const rest = text.slice(at, to);
      const raw = RAW_HTML_BLOCKS.find((block) => block.start.test(rest));
      if (!raw) htmlUntilBlank = true;
      else {
        const after = rest.slice(raw.start.exec(rest)![0].length).toLowerCase();
        if (!raw.ends.some((end) => after.includes(end))) html = raw;
      }
    }
    from = next;
  }
  if (fence?.certain) code.push({ start: codeFrom, end: text.length });
  const closing: string[] = html ? [html.ends[0]!] : [];
  if (uncertain) {
    // Whatever is open: the first line opens a tilde fence when none is, the second closes any
    // backtick fence, the third opens a tilde fence when that left none, the last closes them all.
    const tildes = '~'.repeat(Math.max(3, longestTildes + 1));
    closing.push(`${tildes} text`, '`'.repeat(Math.max(3, longestBackticks + 1)), `${tildes} text`, tildes);
  } else if (fence) closing.push(' '.repeat(fence.indent) + String.fromCharCode(fence.char).repeat(fence.length));
  return { code, closing: closing.join('\n') };
}

/**
 * The text with a backslash before each "[" and "^" that could make a footnote or capture one of
 * the export's references (`own`), and before what follows one of those and would make it a link
 * or a definition, outside the code every viewer reads as code; then, if `close` (a text not in a
 * block quote, which closes what it holds), the lines that close what it left open. A backslash
 * before punctuation shows the punctuation alone: the text reads the same. "[^" becomes "\[^",
 * not "[\^", which GFM still reads as a reference.
 */
export function chatText(text: string, own: readonly Span[], close: boolean): string {
  const { code, closing } = readBlocks(text);
  const out: string[] = [];
  let copied = 0;
  let backslashes = 0; // right before `i`, in what is written
  const escapeAt = (at: number): void => {
    out.push(text.slice(copied, at), '\\');
    copied = at;
    backslashes++;
  };
  let ownAt = 0;
  let codeAt = 0;
  for (let i = 0; i < text.length; ) {
    const block = code[codeAt];
    if (block && i >= block.start) {
      i = Math.max(i, block.end);
      codeAt++;
      backslashes = 0;
      while (own[ownAt] && own[ownAt]!.start < i) ownAt++;
      continue;
    }
    const span = own[ownAt];
    if (span && i === span.start) {
      if (backslashes % 2) escapeAt(i); // the text's backslash would escape the reference
      i = span.end;
      ownAt++;
      backslashes = 0;
      if (i < text.length && own[ownAt]?.start !== i && CAPTURING.has(text.charCodeAt(i))) escapeAt(i);
      continue;
    }
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) {
      backslashes++;
      i++;
      continue;
    }
    const nextOwn = own[ownAt]?.start;
    if (backslashes % 2 === 0 && c === OPEN_BRACKET) {
      // "[^1]", "[ ^1]": a footnote, or a link label that normalises to one.
      let j = i + 1;
      while (j < text.length && j !== nextOwn && WHITESPACE.test(text[j]!)) j++;
      if (text.charCodeAt(j) === CARET && j !== nextOwn) escapeAt(i);
    } else if (backslashes % 2 === 0 && c === CARET) {
      // "^[…]": an inline footnote, or one that would take the export's reference for its text.
      if (text.charCodeAt(i + 1) === OPEN_BRACKET || nextOwn === i + 1) escapeAt(i);
    }
    backslashes = 0;
    i++;
  }
  out.push(text.slice(copied));
  return close && closing ? `${out.join('')}\n${closing}` : out.join('');
}
