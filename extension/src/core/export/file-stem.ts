/** A file's name from a chat's title: one line a file system takes, read as it is shown. */

import { trimEndWhere, trimStartWhere } from '../lines.js';

// Format characters (`\p{Cf}`: the bidi overrides such as U+202E, which show "txt.exe" as
// "exe.txt", and the invisible ones) and lone halves of a surrogate pair: dropped.
const UNSHOWN = /[\p{Cf}\p{Cs}]/gu;
// What a file system refuses or a path reads (Windows' reserved characters, a slash), control
// characters and every blank or line break: one space for each run.
const REFUSED = /[\\/:*?"<>|\p{Cc}\s]+/gu;
const MAX_CODE_POINTS = 80;

const isBlankOrDot = (code: number): boolean => code === 0x20 || code === 0x2e;

/** The first `max` code points of `text`: never half a surrogate pair. */
function firstCodePoints(text: string, max: number): string {
  let end = 0;
  for (let count = 0; count < max && end < text.length; count++) end += text.codePointAt(end)! > 0xffff ? 2 : 1;
  return text.slice(0, end);
}

/** No path, no character a file system refuses, none that hides or reorders what is shown, no blank
 * or dot at either end ("..", " etc"), at most 80 code points; "chat" when nothing is left. */
export function fileStem(title: string): string {
  const cleaned = trimStartWhere(title.replace(UNSHOWN, '').replace(REFUSED, ' '), isBlankOrDot);
  return trimEndWhere(firstCodePoints(cleaned, MAX_CODE_POINTS), isBlankOrDot) || 'chat';
}
