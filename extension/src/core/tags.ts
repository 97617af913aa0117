/**
 * Brave Answers writes its sources as tags inside the answer's text: `<citation>{json}</citation>`
 * after the sentence it supports, and `<usage>{json}</usage>` (plus `<enum_start>`, `<enum_end>`)
 * that a reader should not see. Found with indexOf, linear in the text: an opening tag with no
 * closing one after it is never looked for again.
 */

import { int, type JsonObject, obj, parseJsonString } from './json.js';
import { MAX_CITATIONS } from './limits.js';

export interface Tag {
  name: 'citation' | 'usage' | 'enum_start' | 'enum_end';
  /** UTF-16 offsets of the whole tag, `<name>` to `</name>`. */
  start: number;
  end: number;
  /** The tag's JSON, when it holds an object. */
  data: JsonObject | null;
  /** The number a citation tag names its source by (its `number`), else null: one reading for the
   * parser (producers/brave/format.ts), what the text cites (cited.ts) and where the UI puts its button. */
  citedNumber: number | null;
}

const NAMES: ReadonlyArray<Tag['name']> = ['citation', 'usage', 'enum_start', 'enum_end'];
// Beyond the sources we keep, a tag is only hidden: bounded all the same.
const MAX_TAGS = MAX_CITATIONS * 4;

export function answerTags(text: string): Tag[] {
  if (typeof text !== 'string' || !text.includes('</')) return [];
  const tags: Tag[] = [];
  const unclosed = new Set<string>();
  let from = 0;
  while (tags.length < MAX_TAGS) {
    const open = text.indexOf('<', from);
    if (open < 0) break;
    from = open + 1;
    const name = NAMES.find((n) => !unclosed.has(n) && text.startsWith(`${n}>`, open + 1));
    if (!name) continue;
    const bodyStart = open + name.length + 2;
    const close = text.indexOf(`</${name}>`, bodyStart);
    if (close < 0) {
      unclosed.add(name);
      continue;
    }
    const end = close + name.length + 3;
    const data = obj(parseJsonString(text.slice(bodyStart, close)));
    tags.push({ name, start: open, end, data, citedNumber: name === 'citation' ? int(data?.number) : null });
    from = end;
  }
  return tags;
}
