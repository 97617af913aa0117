/**
 * Reads a payload as a declaration says (declared.ts): the list at its path, each item's fields at
 * their relative paths; or the list in the answer's text under its heading or after a `---` line,
 * read as every list in the text is (source-lists.ts). The same drafts a format's parser makes.
 */

import { type Declared, type DeclaredPath, type PathStep, validateDeclarations } from './declared.js';
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

/** The item's own number, when the declaration names a number field: an integer, as a number or
 * as digits. */
const numberOf = (item: unknown, backend: Declared): number | null =>
  backend.fields.number ? int(at(item, backend.fields.number.steps)) : null;

/** What names the item: its title, link or text; null when it names none. */
function naming(item: unknown, backend: Declared) {
  const read = (path: DeclaredPath | undefined): unknown => (path ? at(item, path.steps) : undefined);
  const { fields } = backend;
  const title = text(read(fields.title));
  const rawUrl = read(fields.url);
  const url = typeof rawUrl === 'string' ? rawUrl : null;
  const snippet = text(read(fields.text));
  return title || url || snippet ? { title, url, snippet, read } : null;
}

function itemDraft(item: unknown, position: number, backend: Declared): Draft | null {
  const named = naming(item, backend);
  if (!named) return null;
  const { title, url, snippet, read } = named;
  const { fields } = backend;
  // Items that carry numbers are named by them only: one without (or below the base) is listed,
  // but no marker names it, rather than a number by place that another item may hold.
  const own = numberOf(item, backend);
  const n = fields.number ? (own !== null && own >= backend.numbering ? own : null) : position + backend.numbering;
  return {
    id: url ?? (n === null ? `item${position + 1}` : `#${n}`),
    title,
    url,
    snippet,
    score: fields.score ? num(read(fields.score)) : null,
    page: fields.page ? int(read(fields.page)) : null,
    kind: isWebUrl(url) ? 'web' : 'document',
    refs: n === null ? [] : [n],
  };
}

/** The list at the path: the first MAX_CITATIONS items that name something drafted, the rest only
 * counted (a built-in declaration reads every model's answers, whose lists may be long). A
 * declaration for any model claims the list only when an item carries its number. */
function fromPath(body: JsonObject, backend: Declared, path: DeclaredPath) {
  const list = at(body, path.steps);
  if (!Array.isArray(list)) return null;
  if (backend.models.length === 0 && !list.some((item) => numberOf(item, backend) !== null)) return null;
  const drafts: Draft[] = [];
  let omitted = 0;
  list.forEach((item, i) => {
    if (drafts.length < MAX_CITATIONS) {
      const draft = itemDraft(item, i, backend);
      if (draft) drafts.push(draft);
    } else if (naming(item, backend)) omitted++;
  });
  return { drafts, ordered: true, field: path.text, ...(omitted ? { omitted } : {}) };
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

/** A built-in declaration's file (producers/<name>/declaration.json) as the admin's JSON: valid, and one
 * backend without models, since a built-in format reads any model's answers. */
export function builtInDeclarationProblems(json: unknown): { backend: Declared | null; problems: string[] } {
  const { backends, errors } = validateDeclarations(json);
  if (errors.length) return { backend: null, problems: errors };
  const [backend] = backends;
  if (backends.length !== 1 || !backend || backend.models.length)
    return {
      backend: null,
      problems: ['must declare one backend, without "models": a built-in reads any model\'s answers'],
    };
  return { backend, problems: [] };
}

/**
 * A built-in format written as a declaration, registered in formats/index.ts under its producer's
 * name. Its citations are that format's, as a parser's are: named by it, with no "as declared"
 * line. A file with a problem reads nothing (verify_producers.py and declared.test.ts check every one).
 */
export function builtInDeclaration(name: string, json: unknown): Format {
  const { backend } = builtInDeclarationProblems(json);
  return {
    name,
    extract(payload) {
      if (backend?.sources.kind !== 'path') return null;
      const found = fromPath(payload, backend, backend.sources.path);
      return found && { drafts: found.drafts, ordered: true };
    },
  };
}
