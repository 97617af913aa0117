/**
 * Open WebUI's own "Download → Plain text (.txt)" keeps each answer's cited sources right after
 * the answer, as copying does. Open WebUI builds that file as one string, `### ROLE\n<text>` per
 * message of the branch shown, blank lines between (Navbar/Menu.svelte and Sidebar/ChatMenu.svelte,
 * 0.6 to 0.12), and makes a Blob of it for file-saver: the Blob made of such a string, in the
 * seconds after a click, gets the sources put after each answer whose text this page knows.
 * Every other Blob is made as it would be.
 */

import type { Citation } from '../core/index.js';
import { guard } from '../guard.js';
import type { Feature } from './context.js';
import { markdownOf } from './copy.js';

// From the click to the Blob: the sidebar's menu reads the chat from the server first.
const ARMED_MS = 10_000;
const ANSWER = '### ASSISTANT\n';
const NEXT_MESSAGE = /^\n\n### (?:USER|ASSISTANT|SYSTEM)\n/;

/** Open WebUI's text of a chat with the sources after each answer of `answers` it holds. */
export function withSourcesAfterAnswers(
  file: string,
  answers: readonly { text: string; citations: readonly Citation[] }[],
): string {
  const insertions: { at: number; sources: string }[] = [];
  for (const answer of answers) {
    const text = answer.text.trimEnd(); // the file is trimmed: its last answer's blanks are gone
    if (!text || !answer.citations.length) continue;
    const needle = `${ANSWER}${text}`;
    // The answer as a whole message: followed by the next one, or by the end of the file.
    for (let at = file.indexOf(needle); at !== -1; at = file.indexOf(needle, at + 1)) {
      const end = at + needle.length;
      if (end === file.length || NEXT_MESSAGE.test(file.slice(end, end + 20))) {
        insertions.push({ at: end, sources: `\n\n${markdownOf(answer.citations).trimEnd()}` });
        break;
      }
    }
  }
  if (!insertions.length) return file;
  insertions.sort((a, b) => a.at - b.at);
  let cursor = 0;
  const pieces: string[] = [];
  for (const { at, sources } of insertions) {
    pieces.push(file.slice(cursor, at), sources);
    cursor = at;
  }
  pieces.push(file.slice(cursor));
  return pieces.join('');
}

const isChatText = (parts: unknown, options: BlobPropertyBag | undefined): parts is [string] =>
  Array.isArray(parts) &&
  parts.length === 1 &&
  typeof parts[0] === 'string' &&
  options?.type === 'text/plain' &&
  /^### (?:USER|ASSISTANT|SYSTEM)\n/.test(parts[0]);

export const initChatDownload: Feature = (ui, signal) => {
  let armedUntil = 0;
  document.addEventListener('click', () => (armedUntil = Date.now() + ARMED_MS), { capture: true, signal });
  const answers = () =>
    ui.answerIds().flatMap((id) => {
      const answer = ui.answer(id);
      return answer ? [{ text: answer.text, citations: ui.split(id).cited }] : [];
    });
  const rewrite = guard('ui', (parts: [string]): BlobPart[] => [withSourcesAfterAnswers(parts[0], answers())]);
  const Original = window.Blob;
  // Named Blob: a Blob made through it is one in every way (instanceof, name, its type tag).
  class Blob extends Original {
    constructor(parts?: BlobPart[], options?: BlobPropertyBag) {
      const chat = Date.now() <= armedUntil && isChatText(parts, options);
      super(chat ? (rewrite(parts) ?? parts) : parts, options);
    }
  }
  window.Blob = Blob;
  signal.addEventListener(
    'abort',
    () => {
      if (window.Blob === Blob) window.Blob = Original;
    },
    { once: true },
  );
};
