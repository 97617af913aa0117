/** Offsets counted by other languages, turned into JavaScript string (UTF-16) offsets. */

import type { OffsetUnit } from './model.js';
import { type Budget, finish, type Steps, WHOLE } from './steps.js';

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
export const toUtf16 = (text: string, offset: number, unit: OffsetUnit): number | null =>
  finish(toUtf16Steps(text, offset, unit, WHOLE));

/** toUtf16 in steps, each walking at most `budget` of the text. Walks from its own place, kept in
 * the cursor at each step: another conversion between two steps moves the cursor, not this walk. */
export function* toUtf16Steps(text: string, offset: number, unit: OffsetUnit, budget: Budget): Steps<number | null> {
  if (!Number.isSafeInteger(offset) || offset < 0) return null;
  if (unit === 'utf16') return offset <= text.length ? offset : null;
  let cursor = cursors.get(unit);
  if (!cursor || cursor.text !== text) {
    cursor = { text, ascii: ASCII.test(text), counted: 0, index: 0 };
    cursors.set(unit, cursor);
  }
  if (cursor.ascii) return offset <= text.length ? offset : null;
  let { counted, index } = cursor.counted <= offset ? cursor : { counted: 0, index: 0 };
  let walked = 0;
  while (counted < offset && index < text.length) {
    const code = text.codePointAt(index)!;
    counted += unit === 'codePoints' ? 1 : code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    index += code > 0xffff ? 2 : 1;
    if (++walked === WALK_STEP) {
      walked = 0;
      if (budget.spend(WALK_STEP)) {
        keepPlace(unit, text, counted, index);
        yield;
      }
    }
  }
  budget.spend(walked);
  keepPlace(unit, text, counted, index);
  return counted === offset ? index : null; // null: past the end, or inside a UTF-8 sequence
}
function keepPlace(unit: OffsetUnit, text: string, counted: number, index: number): void {
  const cursor = cursors.get(unit);
  if (cursor?.text !== text) return void cursors.set(unit, { text, ascii: false, counted, index });
  cursor.counted = counted;
  cursor.index = index;
}
// Code units walked between two looks at the budget: a look per character would cost more than the walk.
const WALK_STEP = 64;

/** [start, end) in UTF-16, or null when the span is not inside the text. */
export function spanToUtf16(text: string, start: number, end: number, unit: OffsetUnit): [number, number] | null {
  const from = toUtf16(text, start, unit);
  if (from === null) return null;
  const to = toUtf16(text, end, unit);
  return to === null || to < from ? null : [from, to];
}
