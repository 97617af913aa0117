/**
 * "Find sources in this response": from what capture kept of an answer's response (the body, or
 * its streamed chunks merged into one: stream.ts) and its text, the declarations (declared.ts)
 * that would read a list of sources from it, best first, each with its preview: the citations the
 * declaration, once saved, reads from the same body (declared-read.ts, through extractCitations,
 * as the hub does), so that a preview is what the page then shows.
 *
 * A list is a candidate when its items are objects with a title-like and a link- or text-like
 * field, named as the generic reader's families name them (formats/generic.ts FAMILIES), at any
 * depth; or a list in the text under a heading or after a `---` line. Everything is untrusted: the
 * walk is breadth first, capped in depth, in values visited and in lists tried; own keys only.
 */

import { type DeclarationJson, type Declared, parsePath, validateDeclarations } from './declared.js';
import { DECLARED_FORMAT } from './declared-read.js';
import { extractCitations } from './extract.js';
import { CITES_ZERO, FAMILIES } from './formats/generic.js';
import { isObject, type JsonObject, num, str } from './json.js';
import { MAX_CITATIONS } from './limits.js';
import { markerPattern, syntaxOf } from './marker-syntax/index.js';
import type { Citation, ExtractOptions } from './model.js';
import type { Notation } from './notations.js';
import { headingWords } from './source-lists.js';
import { isWebUrl } from './urls.js';

/** A declaration without its models (the panel adds the answer's), with what it reads. */
export interface Candidate {
  declaration: Omit<DeclarationJson, 'models'>;
  preview: Citation[];
}

// Bounds of the walk: values visited, depth, lists whose fields are guessed.
const MAX_VISITS = 50_000;
const MAX_DEPTH = 10;
const MAX_LISTS = 200;
// Items of a list whose fields are guessed, and the fields of an item read to guess them.
const SAMPLED_ITEMS = 20;
const MAX_ITEM_FIELDS = 64;
// Two levels inside an item: `meta.title`, `document.doc_metadata.file_name`.
const ITEM_DEPTH = 2;
// Lines of the text tried as headings, the last ones (a list of sources closes an answer).
const MAX_HEADINGS = 20;
const MAX_TEXT = 200_000;
const MAX_CANDIDATES = 8;
// The model a candidate is validated and read with: any id does, the panel saves the answer's.
const ANY_MODEL = 'model';

/** Whether a key can be one step of a declaration's path (declared.ts's grammar, refused names apart). */
const isPathName = (key: string): boolean => {
  const path = parsePath(key);
  return typeof path !== 'string' && path.steps.length === 1;
};

/** A path's text from its steps: `choices[0].message.refs`. */
const joinPath = (steps: ReadonlyArray<string | number>): string =>
  steps.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');

/** Every list of objects in the body, with its path, nearer first. */
function objectLists(body: JsonObject): Array<{ path: string; list: JsonObject[] }> {
  const found: Array<{ path: string; list: JsonObject[] }> = [];
  const queue: Array<{ value: unknown; steps: Array<string | number> }> = [{ value: body, steps: [] }];
  let visits = 0;
  for (let next = 0; next < queue.length && visits < MAX_VISITS && found.length < MAX_LISTS; next++) {
    const { value, steps } = queue[next]!;
    if (steps.length > MAX_DEPTH) continue;
    if (Array.isArray(value)) {
      visits += Math.min(value.length, MAX_CITATIONS);
      const kept = value.length <= MAX_CITATIONS && value.length > 0 && value.every(isObject);
      if (kept && typeof steps[0] === 'string') found.push({ path: joinPath(steps), list: value as JsonObject[] });
      for (let i = 0; i < value.length && i < MAX_CITATIONS && steps.length > 0; i++) {
        if (typeof value[i] === 'object' && value[i] !== null) queue.push({ value: value[i], steps: [...steps, i] });
      }
    } else if (isObject(value)) {
      for (const key in value) {
        if (++visits >= MAX_VISITS) break;
        const child = value[key];
        if (typeof child === 'object' && child !== null && isPathName(key)) {
          queue.push({ value: child, steps: [...steps, key] });
        }
      }
    }
  }
  return found;
}

/** An item's fields down to ITEM_DEPTH, by relative path, each with its name (the path's last step). */
function itemFields(item: JsonObject): Map<string, { name: string; value: unknown }> {
  const fields = new Map<string, { name: string; value: unknown }>();
  const places: Array<{ object: JsonObject; prefix: string; depth: number }> = [{ object: item, prefix: '', depth: 0 }];
  for (let next = 0; next < places.length && fields.size < MAX_ITEM_FIELDS; next++) {
    const { object, prefix, depth } = places[next]!;
    for (const key in object) {
      if (fields.size >= MAX_ITEM_FIELDS) break;
      if (!isPathName(key)) continue;
      const path = prefix === '' ? key : `${prefix}.${key}`;
      const value = object[key];
      if (!isObject(value)) fields.set(path, { name: key, value });
      else if (depth < ITEM_DEPTH) places.push({ object: value, prefix: path, depth: depth + 1 });
    }
  }
  return fields;
}

type Role = 'title' | 'url' | 'text' | 'page' | 'score' | 'number';
const named = (value: unknown): boolean => str(value) !== null;
const counted = (value: unknown): boolean => num(value) !== null || named(value);
/** Each field a declaration names, by the names the generic reader reads it by, and the values it takes. */
const ROLES: Record<Role, { names: readonly string[]; fits: (value: unknown) => boolean }> = {
  title: { names: [...FAMILIES.title, ...FAMILIES.document], fits: named },
  url: { names: [...FAMILIES.link, 'source'], fits: isWebUrl },
  text: { names: FAMILIES.text, fits: named },
  page: { names: FAMILIES.page, fits: counted },
  score: { names: FAMILIES.score, fits: (value) => num(value) !== null },
  number: { names: FAMILIES.number, fits: counted },
};

/** For each field, the one at least half the items fill, by the family's order of names, the shallower first. */
function guessFields(list: readonly JsonObject[]): DeclarationJson['fields'] | null {
  const sampled = list.slice(0, SAMPLED_ITEMS).map(itemFields);
  const paths = new Map<string, string>(); // every field's path, with its name
  for (const fields of sampled) for (const [path, { name }] of fields) if (!paths.has(path)) paths.set(path, name);
  const guessed: Partial<Record<Role, string>> = {};
  for (const role of Object.keys(ROLES) as Role[]) {
    const { names, fits } = ROLES[role];
    let best: { path: string; rank: number } | null = null;
    for (const [path, name] of paths) {
      const order = names.indexOf(name);
      const rank = order * 10 + path.split('.').length;
      if (order === -1 || (best !== null && rank >= best.rank)) continue;
      const filled = sampled.filter((fields) => fits(fields.get(path)?.value)).length;
      if (filled * 2 >= sampled.length) best = { path, rank };
    }
    if (best) guessed[role] = best.path;
  }
  if (guessed.text !== undefined && guessed.text === guessed.title) delete guessed.text; // one field, one role
  return guessed.title !== undefined && (guessed.url !== undefined || guessed.text !== undefined) ? guessed : null;
}

const MARKERS = markerPattern();

/** The notation the answer's markers are most often written in; brackets when it writes none. */
function usedNotation(answer: string): Notation {
  const counts = new Map<Notation, number>();
  let best: { notation: Notation; count: number } = { notation: 'brackets', count: 0 };
  MARKERS.lastIndex = 0;
  for (let match = MARKERS.exec(answer); match; match = MARKERS.exec(answer)) {
    const notation = syntaxOf(match.groups!)?.notation;
    if (!notation) continue;
    const count = (counts.get(notation) ?? 0) + 1;
    counts.set(notation, count);
    if (count > best.count) best = { notation, count };
  }
  return best.notation;
}

/** Whether a line may head a list: a markdown heading, a line in bold, a short one ending in a colon. */
function headsAList(line: string): boolean {
  const trimmed = line.trim();
  if (!headingWords(trimmed)) return false;
  return (
    trimmed.startsWith('#') ||
    (trimmed.startsWith('**') && trimmed.endsWith('**')) ||
    ((trimmed.endsWith(':') || trimmed.endsWith('：')) && trimmed.length <= 40)
  );
}

/** The text's candidate places: under each of its last headings, once each, and after a `---` line. */
function writtenPlaces(answer: string): Array<DeclarationJson['sources']> {
  const headings = new Set<string>();
  const lines = answer.split('\n');
  for (let i = lines.length - 1; i >= 0 && headings.size < MAX_HEADINGS; i--) {
    const words = headsAList(lines[i]!) ? headingWords(lines[i]!.trim()) : null;
    if (words) headings.add(words.toLowerCase());
  }
  return [...[...headings].map((heading) => ({ text: { heading } })), { text: { separator: true as const } }];
}

/** A declaration as the hub would apply it; null when it is not valid. */
function asDeclared(declaration: Omit<DeclarationJson, 'models'>): Declared | null {
  const { backends, errors } = validateDeclarations({ backends: [{ models: [ANY_MODEL], ...declaration }] });
  return errors.length === 0 ? (backends[0] ?? null) : null;
}

/** How much a preview shows of what a user wants: sources with links, then titles, then how many. */
const worth = (preview: readonly Citation[]): number =>
  preview.filter((source) => source.url).length * 4 +
  preview.filter((source) => source.title).length * 2 +
  preview.length;

/**
 * The candidate declarations of an answer, best first, each with its preview. `body`: the
 * response as capture keeps it (a body, or the stream merged); `answer`: the answer's text.
 */
export function findCandidates(body: JsonObject, answer: string, options: ExtractOptions = {}): Candidate[] {
  const text = answer.slice(0, MAX_TEXT);
  const numbering: 0 | 1 = CITES_ZERO.test(text) ? 0 : 1;
  const markers = usedNotation(text);
  const listed = objectLists(body).flatMap(({ path, list }) => {
    const fields = guessFields(list);
    return fields ? [{ declaration: { sources: { path }, fields, numbering, markers }, read: body }] : [];
  });
  // A list in the text is read from the text, as the hub reads the answer's text.
  const written = { choices: [{ index: 0, message: { role: 'assistant', content: text } }] };
  const inText = writtenPlaces(text).map((sources) => ({
    declaration: { sources, numbering, markers },
    read: written,
  }));
  const candidates: Array<Candidate & { order: number }> = [];
  const seen = new Set<string>();
  for (const { declaration, read } of [...listed, ...inText]) {
    const declared = asDeclared(declaration);
    const result = declared && extractCitations(read, { ...options, declared });
    if (!declared || result?.format !== DECLARED_FORMAT) continue;
    // Two places that read the same sources are one candidate: the first (nearer) one.
    const key = result.citations.map((source) => `${source.url}\u0000${source.title}`).join('\u0001');
    if (seen.has(key)) continue;
    seen.add(key);
    const { models: _, ...json } = declared.json;
    candidates.push({ declaration: json, preview: result.citations, order: candidates.length });
  }
  return candidates
    .sort((a, b) => worth(b.preview) - worth(a.preview) || a.order - b.order)
    .slice(0, MAX_CANDIDATES)
    .map(({ declaration, preview }) => ({ declaration, preview }));
}
