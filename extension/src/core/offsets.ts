/** Offsets counted by other languages, turned into JavaScript string (UTF-16) offsets. */

import type { OffsetUnit } from './model.js';
import { type Budget, finish, type Steps, WHOLE } from './steps.js';

/** A place in the text: `counted` units in `unit` are `index` code units of it. */
interface Place {
  counted: number;
  index: number;
}

interface Cursor extends Place {
  text: string;
  /** ASCII only: every unit counts the same as UTF-16, nothing to walk. */
  ascii: boolean;
}

/** Where the last conversion stopped, per unit: producers list spans in text order, so the
 * next offset is found by walking on from there, O(text) for all of them, not per offset. */
const cursors = new Map<OffsetUnit, Cursor>();
const ASCII = /^[\x00-\x7f]*$/;

/** UTF-16 offset of a position counted in `unit` in `text`, or null when it lies outside. */
export const toUtf16 = (text: string, offset: number, unit: OffsetUnit): number | null =>
  finish(toUtf16Steps(text, [offset], unit, WHOLE))[0] ?? null;

const isOffset = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

/** toUtf16 of each offset, in steps (steps.ts) walking at most `budget` of the text each: offsets in
 * ascending order are found in one walk. The walk is its own, kept in the cursor at each step:
 * another conversion between two steps moves the cursor, not this walk. */
export function* toUtf16Steps(
  text: string,
  offsets: ArrayLike<number>,
  unit: OffsetUnit,
  budget: Budget,
): Steps<Array<number | null>> {
  const inText = (offset: number): number | null => (isOffset(offset) && offset <= text.length ? offset : null);
  if (unit === 'utf16') return Array.from(offsets, inText);
  let cursor = cursors.get(unit);
  if (!cursor || cursor.text !== text) {
    cursor = { text, ascii: ASCII.test(text), counted: 0, index: 0 };
    cursors.set(unit, cursor);
  }
  if (cursor.ascii) return Array.from(offsets, inText);
  const place = { counted: cursor.counted, index: cursor.index };
  const found: Array<number | null> = [];
  for (let i = 0; i < offsets.length; i++) {
    const offset = offsets[i]!;
    if (!isOffset(offset)) {
      found.push(null);
      continue;
    }
    if (place.counted > offset) place.counted = place.index = 0;
    while (place.counted < offset && place.index < text.length) {
      const from = place.index;
      walkTo(text, unit, place, offset, from + WALK_STEP);
      if (budget.spend(place.index - from)) {
        keepPlace(unit, text, place);
        yield;
      }
    }
    found.push(place.counted === offset ? place.index : null); // null: past the end, or inside a UTF-8 sequence
  }
  keepPlace(unit, text, place);
  return found;
}

/** Walks `place` on towards `offset`, up to the code unit `until` at most. Not in the generator: a
 * loop there runs several times slower. */
function walkTo(text: string, unit: OffsetUnit, place: Place, offset: number, until: number): void {
  let { counted, index } = place;
  const end = Math.min(until, text.length);
  while (counted < offset && index < end) {
    const code = text.codePointAt(index)!;
    counted += unit === 'codePoints' ? 1 : code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    index += code > 0xffff ? 2 : 1;
  }
  place.counted = counted;
  place.index = index;
}

function keepPlace(unit: OffsetUnit, text: string, { counted, index }: Place): void {
  const cursor = cursors.get(unit);
  if (cursor?.text !== text) return void cursors.set(unit, { text, ascii: false, counted, index });
  cursor.counted = counted;
  cursor.index = index;
}
// Code units walked between two looks at the budget: a look per character would cost more than the walk.
const WALK_STEP = 1024;

/** [start, end) in UTF-16, or null when the span is not inside the text. */
export function spanToUtf16(text: string, start: number, end: number, unit: OffsetUnit): [number, number] | null {
  const [from, to] = finish(toUtf16Steps(text, [start, end], unit, WHOLE));
  return from == null || to == null || to < from ? null : [from, to];
}
