/** BibTeX, with BibLaTeX's fields for the web (`@online`, `url`, `urldate`): what Zotero and
 * JabRef import. Every value is escaped: a title is text, never TeX. */

import { dateParts, type Entry, isoDay } from './sources.js';

const TEX_SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  '%': '\\%',
  '&': '\\&',
  '#': '\\#',
  $: '\\$',
  _: '\\_',
  '^': '\\^{}',
  '~': '\\~{}',
};
const escapeTex = (text: string): string => text.replace(/[\\{}%&#$_^~]/g, (c) => TEX_SPECIAL[c]!);
// A URL is read verbatim: only what would end the field or the entry is encoded.
const escapeUrl = (url: string): string =>
  url.replace(/[{}\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const isWeb = (entry: Entry): boolean => entry.kind === 'web' || entry.kind === 'post';

function fields(entry: Entry, accessed: Date): [string, string][] {
  const web = isWeb(entry);
  const parts = dateParts(entry.date);
  const list: [string, string | null][] = [
    ['title', escapeTex(entry.title)],
    [web ? 'organization' : 'howpublished', entry.container && escapeTex(entry.container)],
    ['url', entry.url && escapeUrl(entry.url)],
    ['urldate', entry.url && isoDay(accessed)],
    ['pages', entry.pages && escapeTex(entry.pages.replace(/-/g, '--'))],
    ['year', parts ? String(parts[0]) : null],
    ['date', parts ? entry.date!.slice(0, 10) : null],
    ['note', entry.quote && escapeTex(`“${entry.quote}”`)],
    ['abstract', entry.snippet && escapeTex(entry.snippet)],
  ];
  return list.filter((field): field is [string, string] => !!field[1]);
}

export function bibtex(entries: readonly Entry[], accessed: Date): string {
  return entries
    .map((entry) => {
      const type = isWeb(entry) ? 'online' : 'misc';
      const body = fields(entry, accessed).map(([name, value]) => `  ${name} = {${value}},`);
      return `@${type}{${entry.key},\n${body.join('\n')}\n}\n`;
    })
    .join('\n');
}
