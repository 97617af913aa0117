/** A number that is a link (`linked-number`): grok2api's and xAI's [[1]](url), PandaWiki's
 * [[1](url)], and [1](url) as any backend writes it. Tried before plain brackets, which would take
 * their "[1]". */

import type { MarkerSyntax } from './syntax.js';

export const doubleBracketLink: MarkerSyntax = {
  notation: 'linked-number',
  group: 'grokN',
  pattern: String.raw`\[\[(?<grokN>\d{1,4})\]\]\((?<grokUrl>[^()\s]+)\)`,
  read: (g) => ({ kind: 'link', n: Number(g.grokN), url: g.grokUrl }),
  leads: ['['],
};

export const wrappedLink: MarkerSyntax = {
  notation: 'linked-number',
  group: 'wrapN',
  pattern: String.raw`\[\[(?<wrapN>\d{1,4})\]\((?<wrapUrl>[^()\s]+)\)\]`,
  read: (g) => ({ kind: 'link', n: Number(g.wrapN), url: g.wrapUrl }),
  leads: ['['],
};

export const numberLink: MarkerSyntax = {
  notation: 'linked-number',
  group: 'linkN',
  pattern: String.raw`\[(?<linkN>\d{1,4})\]\((?<linkUrl>[^()\s]+)\)`,
  read: (g) => ({ kind: 'link', n: Number(g.linkN), url: g.linkUrl }),
  leads: ['['],
};
