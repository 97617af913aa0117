/** BibTeX, with BibLaTeX's fields for the web (`@online`, `url`, `urldate`): what Zotero and
 * JabRef import. Every value is data, written by one function (`braced`): a title is text, never
 * TeX, and nothing in it can end its field, its entry, or start another. */

import { type Entry, isoDate, isoDay, oneLine } from './sources.js';

// BibTeX counts braces and ignores a backslash before one (so does pybtex, which follows it): `\}`
// would close the field. A literal brace is the LaTeX command that prints it instead, so every
// brace of a value is one of the balanced `{}` written here. `\`, `^` and `~` likewise.
const TEX_SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\textbraceleft{}',
  '}': '\\textbraceright{}',
  '%': '\\%',
  '&': '\\&',
  '#': '\\#',
  $: '\\$',
  _: '\\_',
  '^': '\\textasciicircum{}',
  '~': '\\textasciitilde{}',
};
const escapeTex = (text: string): string => text.replace(/[\\{}%&#$_^~]/g, (c) => TEX_SPECIAL[c]!);
// A URL is read verbatim: what would end the field is percent-encoded, which the URL reads the same.
const escapeUrl = (url: string): string =>
  url.replace(/[{}\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A field's value as the file holds it, one line in braces: the one place a value is written. */
const braced = (name: string, value: string): string => `{${(name === 'url' ? escapeUrl : escapeTex)(oneLine(value))}}`;

const isWeb = (entry: Entry): boolean => entry.kind === 'web' || entry.kind === 'post';

function fields(entry: Entry, accessed: Date): [string, string][] {
  const web = isWeb(entry);
  // Only digits and dashes, from the parts of a date that reads as ISO: anything else is no date.
  const date = isoDate(entry.date);
  const list: [string, string | null | undefined][] = [
    ['title', entry.title],
    [web ? 'organization' : 'howpublished', entry.container],
    ['url', entry.url],
    ['urldate', entry.url && isoDay(accessed)],
    ['pages', entry.pages?.replace(/-/g, '--')],
    ['year', date?.slice(0, 4)],
    ['date', date],
    ['note', entry.quote && `“${entry.quote}”`],
    ['abstract', entry.snippet],
  ];
  return list.filter((field): field is [string, string] => !!field[1]);
}

export function bibtex(entries: readonly Entry[], accessed: Date): string {
  return entries
    .map((entry) => {
      const type = isWeb(entry) ? 'online' : 'misc';
      const body = fields(entry, accessed).map(([name, value]) => `  ${name} = ${braced(name, value)},`);
      return `@${type}{${entry.key},\n${body.join('\n')}\n}\n`;
    })
    .join('\n');
}
