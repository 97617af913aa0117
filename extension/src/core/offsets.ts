/** Offsets counted by other languages, turned into JavaScript string (UTF-16) offsets. */

import type { OffsetUnit } from './model.js';

/** UTF-16 offset of a position counted in `unit` in `text`, or null when it lies outside. */
export function toUtf16(text: string, offset: number, unit: OffsetUnit): number | null {
  if (!Number.isSafeInteger(offset) || offset < 0) return null;
  if (unit === 'utf16') return offset <= text.length ? offset : null;
  let counted = 0;
  let i = 0;
  while (counted < offset) {
    if (i >= text.length) return null;
    const code = text.codePointAt(i)!;
    const width = code > 0xffff ? 2 : 1;
    counted += unit === 'codePoints' ? 1 : code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    i += width;
  }
  return counted === offset ? i : null; // null: the offset fell inside a UTF-8 sequence
}

/** [start, end) in UTF-16, or null when the span is not inside the text. */
export function spanToUtf16(text: string, start: number, end: number, unit: OffsetUnit): [number, number] | null {
  const from = toUtf16(text, start, unit);
  if (from === null) return null;
  const to = toUtf16(text, end, unit);
  return to === null || to < from ? null : [from, to];
}
