/** Reading the numbers a marker writes, by hand: an answer may hold tens of thousands of markers. */

/** A list of numbers and ranges as markers write it: "1", "1, 2", "1-3", "1 – 3, 5". */
export const NUMBER_LIST = String.raw`\d{1,4}(?:\s*[-–]\s*\d{1,4})?(?:\s*,\s*\d{1,4}(?:\s*[-–]\s*\d{1,4})?)*`;
// The most numbers one marker names: a range "[1-9999]", or Qianfan's run of brackets, cannot blow up.
export const MAX_RANGE = 50;

/** The numbers a marker's list names, "1, 3-5" → 1, 3, 4, 5: each comma-separated part a number
 * or a range, as `Number.parseInt` reads it (NaN when it reads none). By hand, without the arrays
 * splitting makes: an answer may hold tens of thousands of markers. */
export function listNumbers(list: string): number[] {
  const found: number[] = [];
  for (let from = 0; from <= list.length; ) {
    let comma = list.indexOf(',', from);
    if (comma < 0) comma = list.length;
    let dash = from;
    while (dash < comma && !isDash(list.charCodeAt(dash))) dash++;
    if (dash === comma) found.push(integer(list, from, comma));
    else {
      let end = dash + 1;
      while (end < comma && !isDash(list.charCodeAt(end))) end++;
      const first = integer(list, from, dash);
      const last = integer(list, dash + 1, end);
      if (Number.isNaN(last)) found.push(first);
      else if (first <= last && last - first < MAX_RANGE) for (let n = first; n <= last; n++) found.push(n);
    }
    from = comma + 1;
  }
  return found;
}
const isDash = (c: number): boolean => c === 0x2d || c === 0x2013; // - –

/** `Number.parseInt(list.slice(from, to).trim(), 10)`, without the slice for the usual few digits. */
function integer(list: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const digit = list.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9 || to - from > 15) return Number.parseInt(list.slice(from, to).trim(), 10);
    value = value * 10 + digit;
  }
  return to > from ? value : Number.NaN;
}

/** The numbers of Qianfan's marker, "^[1][23]^" → 1, 23: each run of digits in it, by hand (an
 * answer may hold tens of thousands of markers). */
export function bracketedNumbers(marker: string): number[] {
  const found: number[] = [];
  let from = -1; // where the current run of digits starts
  for (let i = 0; i <= marker.length; i++) {
    const digit = marker.charCodeAt(i) - 0x30; // NaN past the end
    if (digit >= 0 && digit <= 9) {
      if (from < 0) from = i;
    } else if (from >= 0) {
      found.push(integer(marker, from, i));
      from = -1;
    }
  }
  return found;
}
