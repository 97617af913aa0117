/**
 * A chat's answers as Markdown with footnotes: each citation a `[^n]` where the answer cites it,
 * defined under the answer with its link, page and quote; the sources only retrieved listed after.
 * Footnotes are numbered through the whole file, so that two answers' `[^1]` stay apart.
 */

import { splitCited } from '../cited.js';
import { trimEndWhere } from '../lines.js';
import { escapeText, linkedTitle } from '../markdown.js';
import { linkMarkers, type MarkerSpan } from '../markers.js';
import type { Citation } from '../model.js';
import { chatText, type Span } from './chat-text.js';
import { type ExportedAnswer, oneLine } from './sources.js';

export interface MarkdownWords {
  /** "Answer 2". */
  answer: (n: number) => string;
  sources: string;
  retrieved: string;
  page: (citation: Citation) => string | null;
  /** Where the source opens (absolute), or null. */
  link: (citation: Citation) => string | null;
}

const isBlank = (code: number): boolean => code === 0x20 || code === 0x09;

/** The text with each marker replaced by its footnotes, each point a producer attached a source
 * to followed by them, and each block that only listed sources taken out; then made the export's
 * own text (chatText), the references put in being the only ones it keeps. */
function withFootnotes(text: string, spans: readonly MarkerSpan[], refs: (indices: number[]) => string): string {
  const pieces: string[] = [];
  const own: Span[] = [];
  let length = 0;
  const write = (piece: string, isOwn = false): void => {
    if (isOwn && piece) own.push({ start: length, end: length + piece.length });
    pieces.push(piece);
    length += piece.length;
  };
  let cursor = 0;
  for (const span of spans) {
    if (span.start < cursor) continue; // inside a span already replaced
    if (span.kind === 'link') {
      // After the span's words, before the blank it may end with.
      const kept = text.slice(cursor, span.end);
      const words = kept.trimEnd();
      write(words);
      write(refs(span.indices), true);
      write(kept.slice(words.length));
    } else {
      write(trimEndWhere(text.slice(cursor, span.start), isBlank));
      if (span.kind === 'marker') write(refs(span.indices), true);
    }
    cursor = span.end;
  }
  write(text.slice(cursor));
  const kept = pieces.join('').trimEnd();
  return chatText(
    kept,
    own.filter((span) => span.end <= kept.length),
    true,
  );
}

/** `[title](link), p. 3`: how a source reads in a definition and in the list of retrieved ones. */
function reference(citation: Citation, words: MarkdownWords): string {
  const page = words.page(citation);
  return `${linkedTitle(citation, words.link(citation))}${page ? `, ${page}` : ''}`;
}

function definition(n: number, citation: Citation, words: MarkdownWords): string {
  const quote = oneLine(citation.quote?.text);
  return `[^${n}]: ${reference(citation, words)}${quote ? ` — “${escapeText(quote)}”` : ''}`;
}

const listed = (citation: Citation, words: MarkdownWords): string => `- ${reference(citation, words)}`;

export function chatMarkdown(title: string, answers: readonly ExportedAnswer[], words: MarkdownWords): string {
  const parts = [`# ${escapeText(title)}`];
  let numbered = 0;
  answers.forEach((answer, k) => {
    const spans = linkMarkers(answer.text, answer.citations);
    const { cited, retrieved } = splitCited(answer.text, answer.citations, spans);
    const numberOf = new Map(cited.map((citation) => [citation.index, ++numbered]));
    const used = new Set<number>();
    const refs = (indices: number[]): string =>
      indices
        .map((i) => numberOf.get(i))
        .filter((n): n is number => n !== undefined)
        .map((n) => {
          used.add(n);
          return `[^${n}]`;
        })
        .join('');
    if (answers.length > 1) parts.push(`## ${escapeText(words.answer(k + 1))}`);
    if (answer.question) parts.push(chatText(answer.question.trim(), [], false).replace(/^/gm, '> '));
    parts.push(withFootnotes(answer.text, spans, refs));
    // Cited with no marker to stand at (a link in the text, a text that cites none): after the answer.
    const unplaced = cited.map((c) => numberOf.get(c.index)!).filter((n) => !used.has(n));
    if (unplaced.length) parts.push(`${escapeText(words.sources)}: ${unplaced.map((n) => `[^${n}]`).join(' ')}`);
    if (cited.length) parts.push(cited.map((c) => definition(numberOf.get(c.index)!, c, words)).join('\n'));
    if (retrieved.length)
      parts.push(`**${escapeText(words.retrieved)}**\n\n${retrieved.map((c) => listed(c, words)).join('\n')}`);
  });
  return `${parts.join('\n\n')}\n`;
}
