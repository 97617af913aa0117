/**
 * Open WebUI's "Download → Plain text" file of a chat, with each answer's sources after it. Open
 * WebUI writes one `### ROLE\n<text>` per message of the branch shown, a blank line between, the
 * whole trimmed (Navbar/Menu.svelte and Sidebar/ChatMenu.svelte, 0.6 to 0.12). The file is split
 * once at those headers and each assistant message looked up by its text: linear in the file and
 * the answers, whatever a message holds (a producer writes the answers, a user the questions).
 */

import type { Citation } from '../model.js';

// A message header as Open WebUI writes it: at the start of the file or after a blank line. A
// header inside a message (a question starting with a pasted "### ASSISTANT") is not one.
const HEADER = /(?<=^|\n\n)### (USER|ASSISTANT|SYSTEM)\n/g;

/** `file` with `sourcesOf(citations)` after each assistant message whose text is one of
 * `answers` (trimmed): once per text, after its first such message. */
export function withSourcesAfterAnswers(
  file: string,
  answers: readonly { text: string; citations: readonly Citation[] }[],
  sourcesOf: (citations: readonly Citation[]) => string,
): string {
  const byText = new Map<string, readonly Citation[]>();
  for (const { text, citations } of answers) {
    const key = text.trim();
    if (key && citations.length && !byText.has(key)) byText.set(key, citations);
  }
  if (!byText.size) return file;
  const headers = [...file.matchAll(HEADER)];
  const pieces: string[] = [];
  let cursor = 0;
  for (const [i, header] of headers.entries()) {
    if (header[1] !== 'ASSISTANT') continue;
    const start = header.index + header[0].length;
    const next = headers[i + 1];
    const body = file.slice(start, next ? next.index - 2 : file.length);
    const key = body.trim();
    const citations = byText.get(key);
    if (!citations) continue;
    byText.delete(key);
    const end = start + body.trimEnd().length;
    pieces.push(file.slice(cursor, end), `\n\n${sourcesOf(citations).trimEnd()}`);
    cursor = end;
  }
  return cursor ? pieces.join('') + file.slice(cursor) : file;
}
