/**
 * "Find sources in this response": a small button where the source list would be, on a finished
 * answer that shows none. It opens a panel of the lists the answer's response held
 * (core/candidates.ts), each with what it would show; choosing one saves a declaration for the
 * answer's model in this browser (localStorage, the JSON an admin writes, which
 * capture/declarations.ts applies), the answer's sources show at once, and the panel shows the
 * JSON to hand to the admin. Everything shown is text or an attribute (dom.ts): candidates are a
 * producer's data.
 */

import type { Hub } from '../capture/hub.js';
import {
  type Candidate,
  DECLARATION_RULES,
  DECLARATIONS_KEY,
  type DeclarationJson,
  findCandidates,
  parseDeclarations,
} from '../core/index.js';
import { guard } from '../guard.js';
import { el } from './dom.js';
import { selector } from './findable.js';
import { locale, t } from './i18n.js';

/** What the panel needs of the hub: an answer's model, text and response. */
export type SourceFinder = Pick<Hub, 'get'>;

// A candidate shows its first sources: enough to recognise the list.
const PREVIEWED = 5;

/** Where a candidate reads its sources, in words. */
function where({ declaration }: Candidate): string {
  const { sources } = declaration;
  if ('path' in sources) return t('findAtPath', { path: sources.path });
  return 'heading' in sources.text ? t('findUnder', { heading: sources.text.heading }) : t('findAfterLine');
}

function candidateItem(candidate: Candidate, index: number): HTMLElement {
  const shown = candidate.preview.slice(0, PREVIEWED);
  return el(
    'li',
    { class: 'owc-find-candidate' },
    el('p', {}, el('strong', {}, where(candidate)), ' · ', t('findCount', { n: candidate.preview.length })),
    el(
      'ol',
      {},
      ...shown.map((source) =>
        el('li', {}, source.title, source.url ? el('span', { class: 'owc-find-url' }, ` ${source.url}`) : null),
      ),
    ),
    el('button', { type: 'button', class: 'owc-find-pick', 'data-owc-candidate': index }, t('findUse')),
  );
}

function savedText(): string | null {
  try {
    return localStorage.getItem(DECLARATIONS_KEY);
  } catch {
    return null; // storage refused: none saved
  }
}

/** This browser's declarations with `entry` in place of the one its model had (that declaration's
 * other models keep it), saved; the others are dropped only when they are not valid. Other tabs
 * hear of it by the storage event; this one by an event of its own (a tab gets none of its own
 * writes), which capture/declarations.ts reads. */
function save(entry: DeclarationJson): void {
  const saved = savedText();
  const { backends, errors } = saved === null ? { backends: [], errors: [] } : parseDeclarations(saved);
  const others = (errors.length ? [] : backends).flatMap(({ json }) => {
    if (!json.models) return [json]; // one for any model: no model's to replace
    const models = json.models.filter((name) => !entry.models?.includes(name));
    return models.length ? [{ ...json, models }] : [];
  });
  const kept = others.slice(-(DECLARATION_RULES.maxBackends - 1));
  try {
    localStorage.setItem(DECLARATIONS_KEY, JSON.stringify({ backends: [...kept, entry] }, null, 2));
  } catch {
    return; // storage refused or full: the JSON still shows, to hand to the admin
  }
  window.dispatchEvent(new StorageEvent('storage', { key: DECLARATIONS_KEY }));
}

/** The panel's content: the saved declarations' problems, then the candidates or why there are none. */
function panelContent(model: string | null, candidates: readonly Candidate[]): Node[] {
  const saved = savedText();
  const { errors } = saved === null ? { errors: [] } : parseDeclarations(saved);
  const bad = errors.length
    ? [el('p', { class: 'owc-find-error', role: 'alert' }, t('findBadSaved', { errors: errors.join('; ') }))]
    : [];
  if (model === null) return [...bad, el('p', {}, t('findNoModel'))];
  if (candidates.length === 0) return [...bad, el('p', {}, t('findNone'))];
  return [
    ...bad,
    el('p', {}, t('findIntro')),
    el('ol', { class: 'owc-find-candidates' }, ...candidates.map(candidateItem)),
  ];
}

/** What was saved, and the JSON for the admin: read-only, selectable text. */
function savedContent(model: string, json: string): Node[] {
  return [
    el('p', {}, t('findSaved', { model })),
    el(
      'textarea',
      { class: 'owc-find-json', readonly: true, rows: Math.min(16, json.split('\n').length), spellcheck: 'false' },
      json,
    ),
  ];
}

// The candidates a panel shows, for the choice made in it.
const shownCandidates = new WeakMap<Element, { model: string; candidates: readonly Candidate[] }>();

function openPanel(finder: SourceFinder, button: HTMLElement): void {
  const messageId = button.dataset.owcMessageId ?? '';
  const existing = document.querySelector(selector('owc-find-panel', messageId));
  if (existing) {
    existing.remove();
    button.setAttribute('aria-expanded', 'false');
    return;
  }
  const state = finder.get(messageId);
  const text = state ? state.content || state.accumulator.text() : '';
  const candidates = state ? findCandidates(state.accumulator.body(), text, { locale: locale() }) : [];
  const model = state?.model ?? null;
  const panel = el(
    'div',
    { class: 'owc-find-panel', 'data-owc-message-id': messageId, role: 'group', 'aria-label': t('findSources') },
    ...panelContent(model, candidates),
  );
  if (model !== null) shownCandidates.set(panel, { model, candidates });
  button.after(panel);
  button.setAttribute('aria-expanded', 'true');
}

function pick(choice: HTMLElement): void {
  const panel = choice.closest<HTMLElement>('.owc-find-panel');
  const shown = panel && shownCandidates.get(panel);
  const candidate = shown?.candidates[Number(choice.dataset.owcCandidate)];
  if (!panel || !shown || !candidate) return;
  const entry: DeclarationJson = { models: [shown.model], ...candidate.declaration };
  panel.replaceChildren(...savedContent(shown.model, JSON.stringify({ backends: [entry] }, null, 2)));
  save(entry); // the answer is read again, and drawn with its sources
}

/** The button and the panel's choices, by delegation. */
export function initFindSources(finder: SourceFinder | undefined) {
  return (_ui: unknown, signal: AbortSignal): void => {
    if (!finder) return;
    document.addEventListener(
      'click',
      guard('ui', (event: MouseEvent) => {
        const target = event.target as Element | null;
        const button = target?.closest?.<HTMLElement>('.owc-find-sources');
        if (button) openPanel(finder, button);
        const choice = target?.closest?.<HTMLElement>('.owc-find-pick');
        if (choice) pick(choice);
      }),
      { signal },
    );
  };
}
