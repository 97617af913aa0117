/** Offsets counted by other languages, turned into JavaScript string (UTF-16) offsets. */

import type { OffsetUnit } from './model.js';

interface Cursor {
  text: string;
  /** ASCII only: every unit counts the same as UTF-16, nothing to walk. */
  ascii: boolean;
  counted: number;
  index: number;
}

/** Where the last conversion stopped, per unit: producers list spans in text order, so the
 * next offset is found by walking on from there, O(text) for all of them, not per offset. */
const cursors = new Map<OffsetUnit, Cursor>();
const ASCII = /^[\x00-\x7f]*$/;

/** UTF-16 offset of a position counted in `unit` in `text`, or null when it lies outside. */
export function toUtf16(text: string, offset: number, unit: OffsetUnit): number | null {
  if (!Number.isSafeInteger(offset) || offset < 0) return null;
  if (unit === 'utf16') return offset <= text.length ? offset : null;
  let cursor = cursors.get(unit);
  if (!cursor || cursor.text !== text) {
    cursor = { text, ascii: ASCII.test(text), counted: 0, index: 0 };
    cursors.set(unit, cursor);
  }
  if (cursor.ascii) return offset <= text.length ? offset : null;
  if (cursor.counted > offset) cursor.counted = cursor.index = 0;
  let { counted, index } = cursor;
  while (counted < offset && index < text.length) {
    const code = text.codePointAt(index)!;
    counted += unit === 'codePoints' ? 1 : code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    index += code > 0xffff ? 2 : 1;
  }
  cursor.counted = counted;
  cursor.index = index;
  return counted === offset ? index : null; // null: past the end, or inside a UTF-8 sequence
}

/** [start, end) in UTF-16, or null when the span is not inside the text. */
export function spanToUtf16(text: string, start: number, end: number, unit: OffsetUnit): [number, number] | null {
  const from = toUtf16(text, start, unit);
  if (from === null) return null;
  const to = toUtf16(text, end, unit);
  return to === null || to < from ? null : [from, to];
}
