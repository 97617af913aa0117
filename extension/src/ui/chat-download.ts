/**
 * Open WebUI's own "Download → Plain text (.txt)" keeps each answer's cited sources right after
 * the answer, as copying does. Open WebUI builds that file as one string (core's
 * withSourcesAfterAnswers reads it) and makes a Blob of it for file-saver. A click on that menu
 * item puts a Blob class of ours on the page (host/globals.ts); the first Blob made of such a
 * string gets the sources and gives the page its own Blob back, as does the end of ARMED_MS.
 * Every other Blob is made as it would be, and every Blob is `instanceof Blob` all along.
 */

import { withSourcesAfterAnswers } from '../core/index.js';
import { guard } from '../guard.js';
import { patch } from '../host/globals.js';
import { isPlainTextDownload } from '../host/native.js';
import type { Feature } from './context.js';
import { markdownOf } from './copy.js';

// From the click to the Blob: the sidebar's menu reads the chat from the server first.
const ARMED_MS = 10_000;

const isChatText = (parts: unknown, options: BlobPropertyBag | undefined): parts is [string] =>
  Array.isArray(parts) &&
  parts.length === 1 &&
  typeof parts[0] === 'string' &&
  options?.type === 'text/plain' &&
  /^### (?:USER|ASSISTANT|SYSTEM)\n/.test(parts[0]);

export const initChatDownload: Feature = (ui, signal) => {
  const answers = () =>
    ui.answerIds().flatMap((id) => {
      const answer = ui.answer(id);
      return answer ? [{ text: answer.text, citations: ui.split(id).cited }] : [];
    });
  const rewrite = guard('ui', (parts: [string]): BlobPart[] => [
    withSourcesAfterAnswers(parts[0], answers(), markdownOf),
  ]);
  let armed: AbortController | null = null;
  const disarm = () => armed?.abort();
  signal.addEventListener('abort', disarm, { once: true });

  const arm = (): void => {
    disarm();
    const download = new AbortController();
    armed = download;
    const timeout = setTimeout(() => download.abort(), ARMED_MS);
    download.signal.addEventListener('abort', () => clearTimeout(timeout), { once: true });
    patch<typeof Blob>(
      'Blob',
      (Original) =>
        // Named Blob: a Blob made through it is one in every way (name, its type tag; instanceof
        // through host/globals.ts).
        class Blob extends Original {
          constructor(parts?: BlobPart[], options?: BlobPropertyBag) {
            const chat = !download.signal.aborted && isChatText(parts, options);
            if (chat) download.abort(); // this one Blob only
            super(chat ? (rewrite(parts) ?? parts) : parts, options);
          }
        },
      download.signal,
    );
  };
  document.addEventListener(
    'click',
    guard('ui', (event: MouseEvent) => {
      if (isPlainTextDownload(event.target)) arm();
    }),
    { capture: true, signal },
  );
};
