/** An answer's sources as markdown, for the clipboard: "- [n] [title](link), page" under a
 * heading, in the same markdown as the answer, so that its [n] markers keep their meaning. */

import type { Citation } from './model.js';

export interface SourcesMarkdownOptions {
  heading: string;
  /** The page as the reader's language writes it ("p. 3"), or null. */
  page: (citation: Citation) => string | null;
  /** Where the source opens (absolute), or null. */
  link: (citation: Citation) => string | null;
}

/** Characters that would make a title markdown of its own (a link, emphasis, HTML). */
export const escapeText = (text: string): string =>
  text
    .replace(/[\\`*_[\]<>#|]/g, '\\$&')
    .replace(/\s+/g, ' ')
    .trim();
/** Parentheses and spaces would end a link's destination early; a backslash would escape the
 * parenthesis that closes it. */
const escapeLink = (url: string): string =>
  url.replace(/[()\s<>\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/** A source's title as markdown: its link's text when it has one. */
export function linkedTitle(citation: Citation, link: string | null): string {
  const title = escapeText(citation.title) || String(citation.index);
  return link ? `[${title}](${escapeLink(link)})` : title;
}

export function sourcesMarkdown(citations: readonly Citation[], options: SourcesMarkdownOptions): string {
  if (!Array.isArray(citations) || citations.length === 0) return '';
  const lines = citations.map((citation) => {
    const page = options.page(citation);
    return `- [${citation.index}] ${linkedTitle(citation, options.link(citation))}${page ? `, ${page}` : ''}`;
  });
  return `**${escapeText(options.heading)}**\n\n${lines.join('\n')}\n`;
}
