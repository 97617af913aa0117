/** RIS: the tagged format every reference manager reads (EndNote, Zotero, Mendeley). */

import type { CitationKind } from '../model.js';
import { dateParts, type Entry, isoDay, oneLine } from './sources.js';

const TYPES: Record<CitationKind, string> = { web: 'ELEC', post: 'BLOG', document: 'GEN', file: 'GEN', graph: 'GEN' };

/** A tag and its value: the one place a value is written. A line break would start a tag of its
 * own, so the value is made one line here, whatever it is. */
const tagged = (tag: string, value: string): string => `${tag}  - ${oneLine(value)}`;

function lines(entry: Entry, accessed: Date): string[] {
  const [from, to] = entry.pages && !entry.pages.includes(',') ? entry.pages.split('-') : [entry.pages];
  const parts = dateParts(entry.date);
  const values: [string, string | null | undefined][] = [
    ['TY', TYPES[entry.kind] ?? 'GEN'],
    ['TI', entry.title],
    ['T2', entry.container],
    ['UR', entry.url],
    ['Y2', entry.url && `${isoDay(accessed).replace(/-/g, '/')}/`],
    ['SP', from],
    ['EP', to],
    ['PY', parts && String(parts[0])],
    ['N1', entry.quote && `“${entry.quote}”`],
    ['AB', entry.snippet],
    ['ER', ''],
  ];
  return values
    .filter((value): value is [string, string] => typeof value[1] === 'string')
    .map(([tag, value]) => tagged(tag, value));
}

export const ris = (entries: readonly Entry[], accessed: Date): string =>
  entries.map((entry) => `${lines(entry, accessed).join('\n')}\n`).join('\n');
