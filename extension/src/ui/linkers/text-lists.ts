import { LISTS, textNodes } from './dom-text.js';
import type { Pass } from './pass.js';

// Blocks tried as where a list starts, and lists hidden, at most: a crafted answer holds thousands
// of paragraphs and of lists.
const MAX_STARTS = 8;
const MAX_LISTS = 8;
// The separator line a list's block may open or close with (`---`), which Open WebUI draws as <hr>.
const SEPARATOR = /^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/;

/** The letters and digits of a text, in order: what its markdown and what Open WebUI draws of it share
 * (markup and punctuation aside). Left out of markdown: HTML tags (`<details>`) and a link's address,
 * `[title](url)`, which is not drawn (a bare address is). */
export function letters(text: string): string {
  let kept = '';
  let skipTo = '';
  let previous = '';
  for (const c of text) {
    if (skipTo) {
      if (c === skipTo) skipTo = '';
    } else if (c === '<') skipTo = '>';
    else if (c === '(' && previous === ']') skipTo = ')';
    else if (/[\p{L}\p{N}]/u.test(c)) kept += c;
    previous = c;
  }
  return kept;
}

/** The letters of a block as drawn, without its buttons: where the markdown writes a number Open WebUI
 * may draw its own button naming the source (it has the sources stored), and ours say a number. */
export const drawnLetters = (block: Element): string =>
  letters(
    textNodes(block, 'button')
      .map(({ node }) => node.data)
      .join(''),
  );

/** Where `shown` ends in `written` read from `from`, each of its characters found in turn; -1 if not all are. */
function consumed(written: string, from: number, shown: string): number {
  let at = from;
  for (const c of shown) {
    at = written.indexOf(c, at);
    if (at < 0) return -1;
    at += c.length;
  }
  return at;
}

/** The blocks Open WebUI drew from the markdown `written`, starting at `first`, with the separators
 * around them when the markdown opens or closes with one; none when they do not cover it. */
function drawnFrom(first: Element, written: string, blocks: readonly Element[]): Element[] {
  const all = letters(written);
  const taken: Element[] = [];
  let at = 0;
  for (let i = blocks.indexOf(first); i < blocks.length && at < all.length; i++) {
    const block = blocks[i]!;
    const shown = drawnLetters(block);
    if (block.matches('hr, div:empty') && taken.length) continue;
    const end = shown ? consumed(all, at, shown) : -1;
    if (end < 0) break;
    taken.push(block);
    at = end;
  }
  if (at < all.length) return [];
  const lines = written.trim().split('\n');
  const start = blocks.indexOf(taken[0]!);
  const before = blocks[start - 1];
  const after = blocks[blocks.indexOf(taken.at(-1)!) + 1];
  if (SEPARATOR.test(lines[0] ?? '') && before?.matches('hr')) taken.unshift(before);
  if (lines.length > 1 && SEPARATOR.test(lines.at(-1) ?? '') && after?.matches('hr')) taken.push(after);
  return taken;
}

// A `<details>` opening the markdown, and the summary Open WebUI's tokenizer reads on the line after
// it (marked/extension.ts: one line; one spread over several lines is no summary).
const DETAILS = /^\s*<details[\s>]/;
const ONE_LINE_SUMMARY = /^<summary>(.*?)<\/summary>$/;

// What opens a Collapsible: a button in Open WebUI 0.12, a clickable div in 0.6.
const OPENER = 'button[aria-expanded], div.cursor-pointer';

/** The block Open WebUI drew of a `<details>` that the markdown `written` opens with: its
 * Collapsible, a block whose first element is what opens it, named by the summary (its content
 * drawn inside only when open), the first such not hidden whose opener reads as the summary. */
function drawnDetails(written: string, blocks: readonly Element[]): Element | null {
  if (!DETAILS.test(written)) return null;
  const summaryLine = written.trimStart().split('\n', 2)[1]?.trim() ?? '';
  const summary = letters(ONE_LINE_SUMMARY.exec(summaryLine)?.[1] ?? '');
  return (
    blocks.find((block) => {
      const opener = block.firstElementChild;
      return (
        block.matches('div:not(.owc-hidden)') &&
        opener?.matches(OPENER) &&
        letters(opener.textContent ?? '') === summary
      );
    }) ?? null
  );
}

/** A list of sources written in the answer's text (the core's `block` spans: a heading's list, the
 * `检索` lines of a proxy, a `<details>` of searches), once our list shows its sources: the blocks
 * Open WebUI drew of it are hidden, wherever in the answer they are, and nothing else (a
 * `<details>`: the collapsible it drew, open or not). */
export function* hideTextLists({ content, view: { contentSpans } }: Pass, root: Element): Generator<void> {
  const lists = contentSpans.filter((s) => s.kind === 'hide' && s.block).slice(0, MAX_LISTS);
  if (lists.length === 0) return;
  const blocks = [...root.children].filter((block) => !block.matches(`.owc-hidden, ${LISTS}`));
  const shown = blocks.map(drawnLetters);
  for (const list of lists) {
    const written = content.slice(list.start, list.end);
    const details = drawnDetails(written, blocks);
    if (details) {
      details.classList.add('owc-hidden');
      yield;
      continue;
    }
    const head = letters(written).slice(0, 1);
    const starts = blocks.filter((_, i) => shown[i]!.startsWith(head)).slice(0, MAX_STARTS);
    for (const start of head ? starts : []) {
      const drawn = drawnFrom(start, written, blocks);
      if (drawn.length === 0) continue;
      for (const block of drawn) block.classList.add('owc-hidden');
      break;
    }
    yield;
  }
}
