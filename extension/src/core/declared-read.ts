/**
 * Reads a payload as a declaration says (declared.ts): the list at its path, each item's fields at
 * their relative paths; or the list in the answer's text under its heading or after a `---` line,
 * read as every list in the text is (source-lists.ts). The same drafts a format's parser makes.
 */

import type { Declared, DeclaredPath, PathStep } from './declared.js';
import { listedDraft } from './formats/text-list.js';
import { firstChoice, int, isObject, type JsonObject, num, obj } from './json.js';
import { MAX_CITATIONS } from './limits.js';
import type { Draft, Format } from './model.js';
import { type ListPlace, sourceLists } from './source-lists.js';
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

/** The last list of the answer's text right under the declared heading or separator, read as any
 * list in the text is (source-lists.ts); its items numbered as written, else from the base. */
function fromText(body: JsonObject, backend: Declared, place: ListPlace) {
  const list = sourceLists(answerText(body), place)
    .filter((found) => found.declared)
    .at(-1);
  if (!list) return null;
  const drafts = list.sources.map((source, i) => ({
    ...listedDraft(source, source.n ?? i + backend.numbering),
    listedUnder: place,
  }));
  const where = place.kind === 'heading' ? `text under "${place.heading}"` : 'text after ---';
  return { drafts, ordered: true, field: where };
}

/** The declaration as a format, tried before the built-in ones (extract.ts). */
export function declaredFormat(backend: Declared): Format {
  return {
    name: DECLARED_FORMAT,
    extract: (payload) =>
      backend.sources.kind === 'path'
        ? fromPath(payload, backend, backend.sources.path)
        : fromText(payload, backend, backend.sources),
  };
}
