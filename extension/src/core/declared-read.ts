/**
 * Reads a payload as a declaration says (declared.ts): the list at its path, each item's fields at
 * their relative paths; or the list of links in the answer's text under its heading or after a
 * `---` line. The same drafts a format's parser makes.
 */

import type { Declared, DeclaredPath, PathStep } from './declared.js';
import { firstChoice, int, isObject, type JsonObject, num, obj } from './json.js';
import { MAX_CITATIONS } from './limits.js';
import type { Draft, Format } from './model.js';
import { isWebUrl } from './urls.js';

/** The format name of what a declaration read: citations say so, as a parser's say its producer. */
export const DECLARED_FORMAT = 'declared';

/** The value at `steps` inside `value`, own fields only. A chunk's `delta` is read as the message the
 * stream's chunks were merged into (stream.ts), and the other way round. */
function at(value: unknown, steps: readonly PathStep[]): unknown {
  let here = value;
  for (const step of steps) {
    if (typeof step === 'number') {
      here = Array.isArray(here) ? here[step] : undefined;
      continue;
    }
    if (!isObject(here)) return undefined;
    if (Object.hasOwn(here, step)) here = here[step];
    else if (step === 'delta' && Object.hasOwn(here, 'message')) here = here.message;
    else if (step === 'message' && Object.hasOwn(here, 'delta')) here = here.delta;
    else return undefined;
  }
  return here;
}

const text = (value: unknown): string | null => {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value : null;
};

function itemDraft(item: unknown, position: number, backend: Declared): Draft | null {
  const read = (path: DeclaredPath | undefined): unknown => (path ? at(item, path.steps) : undefined);
  const { fields } = backend;
  const title = text(read(fields.title));
  const rawUrl = read(fields.url);
  const url = typeof rawUrl === 'string' ? rawUrl : null;
  const snippet = text(read(fields.text));
  if (!title && !url && !snippet) return null;
  const number = fields.number ? int(read(fields.number)) : null;
  const n = number ?? position + backend.numbering;
  return {
    id: url ?? `#${n}`,
    title,
    url,
    snippet,
    score: fields.score ? num(read(fields.score)) : null,
    page: fields.page ? int(read(fields.page)) : null,
    kind: isWebUrl(url) ? 'web' : 'document',
    refs: [n],
  };
}

function fromPath(body: JsonObject, backend: Declared, path: DeclaredPath) {
  const list = at(body, path.steps);
  if (!Array.isArray(list)) return null;
  const drafts: Draft[] = [];
  for (let i = 0; i < list.length && drafts.length < MAX_CITATIONS; i++) {
    const draft = itemDraft(list[i], i, backend);
    if (draft) drafts.push(draft);
  }
  return { drafts, ordered: true, field: path.text };
}

/** The answer's text in a body or a merged stream. */
function answerText(body: JsonObject): string {
  const choice = firstChoice(body);
  const content = obj(choice?.message)?.content ?? obj(choice?.delta)?.content;
  return typeof content === 'string' ? content : '';
}

/** A heading's words as the user reads them: no `#`, `*`, `_`, blanks or trailing colon. */
export function headingWords(line: string): string {
  let start = 0;
  let end = line.length;
  const trimmed = (c: number): boolean => c === 0x23 || c === 0x2a || c === 0x5f || c === 0x20 || c === 0x09;
  while (start < end && trimmed(line.charCodeAt(start))) start++;
  while (end > start && (trimmed(line.charCodeAt(end - 1)) || line.charCodeAt(end - 1) === 0x3a)) end--;
  while (end > start && trimmed(line.charCodeAt(end - 1))) end--;
  return line.slice(start, end).toLowerCase();
}

const isSeparator = (line: string): boolean => {
  const trimmed = line.trim();
  if (trimmed.length < 3) return false;
  for (let i = 0; i < trimmed.length; i++) if (trimmed.charCodeAt(i) !== 0x2d) return false;
  return true;
};

/** The leading number of `text` from `from`: its value and end, or null. At most 4 digits. */
function leadingNumber(text: string, from: number): { n: number; end: number } | null {
  let end = from;
  while (end < text.length && end - from < 5 && text.charCodeAt(end) >= 0x30 && text.charCodeAt(end) <= 0x39) end++;
  return end > from && end - from <= 4 ? { n: Number(text.slice(from, end)), end } : null;
}

/** One line of a list of sources: `[n] title url`, `n. [title](url)`, `- [title](url)`, a bare URL,
 * `n. title`. Its number, when written, and what it names; null for a line that is none. */
function listItem(line: string): { n: number | null; title: string | null; url: string | null } | null {
  let rest = line.trim();
  let n: number | null = null;
  if (rest.startsWith('[') && !rest.startsWith('[http')) {
    const number = leadingNumber(rest, 1);
    if (number && rest.charCodeAt(number.end) === 0x5d /* ] */ && rest.charCodeAt(number.end + 1) !== 0x28 /* ( */) {
      n = number.n;
      rest = rest.slice(number.end + 1).trim();
    }
  } else if (rest.startsWith('- ') || rest.startsWith('* ') || rest.startsWith('+ ')) {
    rest = rest.slice(2).trim();
  } else {
    const number = leadingNumber(rest, 0);
    const after = number ? rest.charCodeAt(number.end) : 0;
    if (number && (after === 0x2e || after === 0x29) /* . ) */ && rest.charCodeAt(number.end + 1) === 0x20) {
      n = number.n;
      rest = rest.slice(number.end + 2).trim();
    }
  }
  if (rest === '') return null;
  // [title](url), the whole rest
  if (rest.startsWith('[') && rest.endsWith(')')) {
    const middle = rest.lastIndexOf('](');
    if (middle > 0) {
      const url = rest.slice(middle + 2, -1).trim();
      return isWebUrl(url) ? { n, title: rest.slice(1, middle).trim() || null, url } : null;
    }
  }
  // title url, or a bare url: the last word is the link
  const space = rest.lastIndexOf(' ');
  let last = rest.slice(space + 1);
  if (last.startsWith('<') && last.endsWith('>')) last = last.slice(1, -1);
  if (isWebUrl(last)) {
    const title = trimTitle(space < 0 ? '' : rest.slice(0, space));
    return { n, title: title || null, url: last };
  }
  // A numbered title without a link (a file's name): only when the line says it is an item.
  return n !== null || line.trimStart().startsWith('- ') ? { n, title: trimTitle(rest), url: null } : null;
}

/** A title without the dash or colon that separates it from its link. */
function trimTitle(title: string): string {
  let end = title.length;
  const separates = (c: number): boolean => c === 0x20 || c === 0x2d || c === 0x3a || c === 0x2014 || c === 0x2013;
  while (end > 0 && separates(title.charCodeAt(end - 1))) end--;
  return title.slice(0, end);
}

function fromText(body: JsonObject, backend: Declared) {
  const { sources } = backend;
  const answer = answerText(body);
  if (answer === '') return null;
  const lines = answer.split('\n');
  // The last heading or separator: a list that closes the answer.
  let start = -1;
  const wanted = sources.kind === 'heading' ? sources.heading.toLowerCase() : '';
  for (let i = lines.length - 1; i >= 0 && start < 0; i--) {
    const line = lines[i]!;
    if (sources.kind === 'heading' ? line.length <= 200 && headingWords(line) === wanted : isSeparator(line)) start = i;
  }
  if (start < 0) return null;
  const drafts: Draft[] = [];
  for (let i = start + 1; i < lines.length && drafts.length < MAX_CITATIONS; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const item = listItem(line);
    if (!item) {
      if (drafts.length) break; // the list ended
      continue;
    }
    const n = item.n ?? drafts.length + backend.numbering;
    drafts.push({
      id: item.url ?? `#${n}`,
      title: item.title,
      url: item.url,
      kind: item.url ? 'web' : 'document',
      refs: [n],
    });
  }
  const where = sources.kind === 'heading' ? `text under "${sources.heading}"` : 'text after ---';
  return drafts.length ? { drafts, ordered: true, field: where } : null;
}

/** The declaration as a format, tried before the built-in ones (extract.ts). */
export function declaredFormat(backend: Declared): Format {
  return {
    name: DECLARED_FORMAT,
    extract: (payload) =>
      backend.sources.kind === 'path' ? fromPath(payload, backend, backend.sources.path) : fromText(payload, backend),
  };
}
