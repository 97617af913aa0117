/**
 * A declared backend: a few lines of JSON an admin (or a user, for this browser) writes to say
 * where a model's sources are, for a backend no format reads. Untrusted like any payload: checked
 * here, strictly and totally, into `Declared` values the reader (declared-read.ts) applies. No
 * pattern ever comes from outside: paths are read by the small grammar below, the marker notation
 * is a name from notations.ts.
 */

import { isObject } from './json.js';
import { cutStart } from './limits.js';
import { isNotation, NOTATIONS, type Notation } from './notations.js';

/** The browser's own declarations (the same JSON an admin installs), in localStorage. */
export const DECLARATIONS_KEY = 'owui-citations:backends';

/** The bounds and names validation holds a declaration to; the installer's Python copy is tested
 * against these (tests/test_declared_backends.py). */
export const DECLARATION_RULES = {
  maxBackends: 50,
  maxModels: 20,
  maxModel: 200,
  maxPath: 200,
  maxHeading: 100,
  maxIndex: 9999,
  /** A declarations text longer than this is not parsed at all. */
  maxText: 100_000,
  /** Errors reported at most; one more line says how many were left out. */
  maxErrors: 50,
  fields: ['title', 'url', 'text', 'page', 'score', 'number'],
  notations: Object.keys(NOTATIONS) as Notation[],
  /** Names a path may not use: an object's own machinery, never a producer's field. */
  refusedNames: ['__proto__', 'constructor', 'prototype'],
} as const;

export type DeclaredField = (typeof DECLARATION_RULES.fields)[number];

/** One step of a path: a field name or a list index. */
export type PathStep = string | number;

export interface DeclaredPath {
  /** As written, for the console line naming what was read. */
  text: string;
  steps: PathStep[];
}

export type DeclaredSources =
  | { kind: 'path'; path: DeclaredPath }
  | { kind: 'heading'; heading: string }
  | { kind: 'separator' };

/** A validated declaration, ready to read with. `json` is it as it would be written back. */
export interface Declared {
  /** None: any model's answer whose list is there, its items carrying their `number` (declared-read.ts). */
  models: string[];
  sources: DeclaredSources;
  fields: Partial<Record<DeclaredField, DeclaredPath>>;
  numbering: 0 | 1;
  markers: Notation | null;
  json: DeclarationJson;
}

/** A declaration as JSON, the shape an admin writes (docs/formats.md, "Declared backends"). */
export interface DeclarationJson {
  models?: string[];
  sources: { path: string } | { text: { heading: string } | { separator: true } };
  fields?: Partial<Record<DeclaredField, string>>;
  numbering?: 0 | 1;
  markers?: Notation;
}

const isNameChar = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/**
 * `name(.name | [N])*`, names of letters, digits, `_` and `-`, N a list index: read in one pass,
 * character by character. An error string, or the steps.
 */
export function parsePath(text: string): DeclaredPath | string {
  if (text.length === 0) return 'an empty path';
  if (text.length > DECLARATION_RULES.maxPath) return `longer than ${DECLARATION_RULES.maxPath} characters`;
  const steps: PathStep[] = [];
  let at = 0;
  let expectName = true;
  while (at < text.length) {
    const c = text.charCodeAt(at);
    if (c === 0x5b /* [ */) {
      let end = at + 1;
      while (end < text.length && isDigit(text.charCodeAt(end))) end++;
      if (end === at + 1 || text.charCodeAt(end) !== 0x5d /* ] */)
        return `a "[" at ${at} not followed by digits and "]"`;
      const index = Number(text.slice(at + 1, end));
      if (index > DECLARATION_RULES.maxIndex) return `an index over ${DECLARATION_RULES.maxIndex}`;
      if (steps.length === 0) return 'an index before any name';
      steps.push(index);
      at = end + 1;
      expectName = false;
      continue;
    }
    if (c === 0x2e /* . */) {
      if (expectName) return `a "." at ${at} where a name should be`;
      expectName = true;
      at++;
      continue;
    }
    if (!isNameChar(c)) return `a character at ${at} that is not a letter, digit, "_", "-", "." or "["`;
    if (!expectName) return `a name at ${at} not after "."`;
    let end = at;
    while (end < text.length && isNameChar(text.charCodeAt(end))) end++;
    const name = text.slice(at, end);
    if ((DECLARATION_RULES.refusedNames as readonly string[]).includes(name)) return `the name "${name}", refused`;
    steps.push(name);
    at = end;
    expectName = false;
  }
  if (expectName) return 'a "." at its end';
  return { text, steps };
}

/** Collects errors up to the cap. */
class Errors {
  private readonly list: string[] = [];
  /** Every error, the ones left out too: whether a backend had one. */
  count = 0;
  add(message: string): void {
    if (this.list.length < DECLARATION_RULES.maxErrors) this.list.push(message);
    this.count++;
  }
  done(): string[] {
    const left = this.count - this.list.length;
    return left ? [...this.list, `… and ${left} more`] : this.list;
  }
}

/** Keys of `value` other than `allowed`, each one error. */
function refuseUnknownKeys(value: Record<string, unknown>, allowed: readonly string[], where: string, errors: Errors) {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) errors.add(`${where}: unknown key ${JSON.stringify(cutStart(key, 40))}`);
  }
}

// At most 40 UTF-16 units of a name in a message, never half a surrogate pair.
const quoted = (text: string): string => JSON.stringify(text.length > 40 ? `${cutStart(text, 40)}…` : text);

function readModels(value: unknown, where: string, errors: Errors): string[] {
  if (!Array.isArray(value) || value.length === 0) {
    errors.add(`${where}: models: must be a non-empty list of model ids`);
    return [];
  }
  if (value.length > DECLARATION_RULES.maxModels) {
    errors.add(`${where}: models: more than ${DECLARATION_RULES.maxModels}`);
    return [];
  }
  const models: string[] = [];
  value.forEach((model, i) => {
    if (typeof model !== 'string' || model.trim() === '' || model.length > DECLARATION_RULES.maxModel)
      errors.add(`${where}: models[${i}]: must be a model id (text of 1 to ${DECLARATION_RULES.maxModel} characters)`);
    else models.push(model);
  });
  return models;
}

/** An object with exactly one of two keys and no other, or null with its errors. */
function oneOf(
  value: unknown,
  keys: readonly [string, string],
  shape: string,
  where: string,
  errors: Errors,
): Record<string, unknown> | null {
  if (!isObject(value)) {
    errors.add(`${where}: must be ${shape}`);
    return null;
  }
  refuseUnknownKeys(value, keys, where, errors);
  if (keys[0] in value === keys[1] in value) {
    errors.add(`${where}: must have exactly one of "${keys[0]}" and "${keys[1]}"`);
    return null;
  }
  return value;
}

function readSources(given: unknown, where: string, errors: Errors): DeclaredSources | null {
  const value = oneOf(given, ['path', 'text'], '{"path": …} or {"text": …}', `${where}: sources`, errors);
  if (!value) return null;
  if ('path' in value) {
    if (typeof value.path !== 'string') {
      errors.add(`${where}: sources.path: must be a path (text)`);
      return null;
    }
    const path = parsePath(value.path);
    if (typeof path === 'string') {
      errors.add(`${where}: sources.path: ${quoted(value.path)} is not a path: ${path}`);
      return null;
    }
    return { kind: 'path', path };
  }
  const shape = '{"heading": "…"} or {"separator": true}';
  const text = oneOf(value.text, ['heading', 'separator'], shape, `${where}: sources.text`, errors);
  if (!text) return null;
  if ('separator' in text) {
    if (text.separator === true) return { kind: 'separator' };
    errors.add(`${where}: sources.text.separator: must be true`);
    return null;
  }
  const heading = text.heading;
  if (typeof heading !== 'string' || heading.trim() === '' || heading.length > DECLARATION_RULES.maxHeading) {
    errors.add(`${where}: sources.text.heading: must be text of 1 to ${DECLARATION_RULES.maxHeading} characters`);
    return null;
  }
  return { kind: 'heading', heading: heading.trim() };
}

function readFields(value: unknown, where: string, errors: Errors): Declared['fields'] | null {
  if (!isObject(value)) {
    errors.add(`${where}: fields: must be an object of relative paths`);
    return null;
  }
  const fields: Declared['fields'] = {};
  for (const key of Object.keys(value)) {
    const name = DECLARATION_RULES.fields.find((field) => field === key);
    if (!name) {
      errors.add(`${where}: fields: unknown key ${quoted(key)} (known: ${DECLARATION_RULES.fields.join(', ')})`);
      continue;
    }
    const raw = value[key];
    const path = typeof raw === 'string' ? parsePath(raw) : 'not text';
    if (typeof path === 'string')
      errors.add(`${where}: fields.${name}: ${typeof raw === 'string' ? `${quoted(raw)} is not a path: ` : ''}${path}`);
    else fields[name] = path;
  }
  if (!fields.title || !(fields.url || fields.text))
    errors.add(`${where}: fields: must name "title" and at least one of "url" and "text"`);
  return fields;
}

/** How errors name a backend: its index, and its first model when it has one. */
const backendName = (index: number, first: unknown): string =>
  `backends[${index}]${typeof first === 'string' ? ` (${quoted(first)})` : ''}`;

function readBackend(value: unknown, index: number, errors: Errors): Declared | null {
  if (!isObject(value)) {
    errors.add(`backends[${index}]: must be an object`);
    return null;
  }
  const where = backendName(index, Array.isArray(value.models) ? value.models[0] : null);
  const before = errors.count;
  refuseUnknownKeys(value, ['models', 'sources', 'fields', 'numbering', 'markers'], where, errors);
  const anyModel = !('models' in value);
  const models = anyModel ? [] : readModels(value.models, where, errors);
  const sources = readSources(value.sources, where, errors);
  let fields: Declared['fields'] = {};
  if (sources?.kind === 'path') fields = readFields(value.fields, where, errors) ?? {};
  else if (sources && 'fields' in value) errors.add(`${where}: fields: only for sources at a path`);
  // Without models, what claims a payload is a list whose items carry the declared number: a list
  // in the text, or one recognised by its path alone, would be read in every model's answers.
  if (anyModel && sources && sources.kind !== 'path')
    errors.add(`${where}: sources: without "models", must be a path (a list in the text is declared per model)`);
  else if (anyModel && sources && !(isObject(value.fields) && 'number' in value.fields))
    errors.add(`${where}: fields: without "models", must name "number", the field that claims a list`);
  const numbering = value.numbering ?? 1;
  const base = numbering === 0 ? 0 : numbering === 1 ? 1 : null;
  if (base === null) errors.add(`${where}: numbering: must be 0 or 1`);
  const markers = value.markers ?? null;
  if (markers !== null && !isNotation(markers))
    errors.add(`${where}: markers: must be one of ${DECLARATION_RULES.notations.join(', ')}`);
  if (errors.count > before || !sources || base === null) return null;
  const declared: Omit<Declared, 'json'> = {
    models,
    sources,
    fields,
    numbering: base,
    markers: isNotation(markers) ? markers : null,
  };
  return { ...declared, json: declarationJson(declared) };
}

/** The JSON a declaration is written as: what the in-page flow saves and shows the user to hand to the admin. */
export function declarationJson(declared: Omit<Declared, 'json'>): DeclarationJson {
  const { sources } = declared;
  const json: DeclarationJson = {
    ...(declared.models.length ? { models: [...declared.models] } : {}),
    sources:
      sources.kind === 'path'
        ? { path: sources.path.text }
        : { text: sources.kind === 'heading' ? { heading: sources.heading } : { separator: true } },
  };
  const fields = Object.entries(declared.fields).map(([name, path]) => [name, path.text]);
  if (fields.length) json.fields = Object.fromEntries(fields);
  json.numbering = declared.numbering;
  if (declared.markers) json.markers = declared.markers;
  return json;
}

/**
 * `{"backends": [...]}` checked: the declarations that are whole, and one error string per
 * problem, each naming the backend (its index and first model) and the field. Callers apply the
 * backends only when there is no error (a file half right is not half applied). Never throws.
 */
export function validateDeclarations(json: unknown): { backends: Declared[]; errors: string[] } {
  const errors = new Errors();
  const backends: Declared[] = [];
  try {
    if (!isObject(json)) return { backends, errors: ['must be an object {"backends": [...]}'] };
    refuseUnknownKeys(json, ['backends'], 'top level', errors);
    const list = json.backends;
    if (!Array.isArray(list)) errors.add('backends: must be a list');
    else if (list.length > DECLARATION_RULES.maxBackends)
      errors.add(`backends: more than ${DECLARATION_RULES.maxBackends}`);
    else {
      const seen = new Map<string, number>();
      list.forEach((value, index) => {
        const backend = readBackend(value, index, errors);
        if (!backend) return;
        const twice = backend.models.filter((model) => seen.has(model));
        for (const model of twice)
          errors.add(
            `${backendName(index, backend.models[0])}: models: ${quoted(model)} is declared by backends[${seen.get(model)}] too`,
          );
        if (twice.length) return;
        for (const model of backend.models) seen.set(model, index);
        backends.push(backend);
      });
    }
  } catch {
    errors.add('could not be read'); // a getter or a proxy: JSON.parse makes neither, but be total
  }
  return { backends, errors: errors.done() };
}

/** A declarations text (a file, a localStorage value) parsed and checked. Never throws. */
export function parseDeclarations(text: unknown): { backends: Declared[]; errors: string[] } {
  if (typeof text !== 'string') return { backends: [], errors: ['must be JSON text'] };
  if (text.length > DECLARATION_RULES.maxText)
    return { backends: [], errors: [`longer than ${DECLARATION_RULES.maxText} characters`] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return {
      backends: [],
      errors: [`not JSON: ${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'}`],
    };
  }
  return validateDeclarations(json);
}

/** `{"backends": [...]}` as text, for the browser's key or the admin's file. */
export const declarationsText = (backends: readonly Declared[]): string =>
  JSON.stringify({ backends: backends.map((backend) => backend.json) }, null, 2);

/**
 * `list` with `added` saved into it, as the in-page flow saves a declaration for a model: the models
 * it declares are taken out of the earlier declarations (one left without a model goes), so that the
 * list stays valid (a model is declared once), and it comes last.
 */
export function withDeclaration(list: readonly Declared[], added: Declared): Declared[] {
  const taken = new Set(added.models);
  const kept = list.flatMap((backend) => {
    const models = backend.models.filter((model) => !taken.has(model));
    if (models.length === backend.models.length) return [backend];
    if (models.length === 0) return [];
    const rest = { ...backend, models };
    return [{ ...rest, json: declarationJson(rest) }];
  });
  return [...kept, added];
}

/** Which declaration applies to each model: the admin's, unless this browser declares the model itself. */
export function declarationsByModel(
  admin: readonly Declared[],
  browser: readonly Declared[],
): ReadonlyMap<string, Declared> {
  const byModel = new Map<string, Declared>();
  for (const backend of [...admin, ...browser]) for (const model of backend.models) byModel.set(model, backend);
  return byModel;
}
