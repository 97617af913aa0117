/**
 * The extension's words. English is here, in the first part, and is the fallback of every string;
 * each other language Open WebUI ships is one module, ui/locales/<code>.ts, loaded through
 * `setMessagesLoader`'s loader when the page uses it.
 */

import { warnOnce } from '../guard.js';

export const ENGLISH = {
  sources: 'Sources',
  showAll: 'Show all {n} sources',
  showFewer: 'Show fewer',
  source: 'Source {n}: {title}',
  copy: 'Copy citation',
  copied: 'Copied',
  previous: 'Previous source',
  next: 'Next source',
  close: 'Close',
  page: 'p. {n}',
  pages: 'pp. {from}–{to}',
  similarity: 'Relevance {n}',
  reranker: 'Reranker score {n}',
  bm25: 'Search score {n}',
  raw: 'Score {n}',
  notVerbatim: 'Not verbatim: this quote was not found in the source text.',
  ofTotal: '{n} of {total}',
  copyAll: 'Copy all sources',
  settings: 'Citation settings',
  settingShown: 'Sources shown before “Show all”',
  settingAll: 'All',
  settingRetrieved: 'Show sources retrieved but not cited',
  settingStrip: 'Keep Open WebUI’s own source list',
  retrieved: '{n} more retrieved, not cited',
  unnamed: 'Source {n}: the backend sent no such source',
  citation: 'Citation {k} of {total}: source {n}, {title}',
  citedOnce: 'Cited once in this answer',
  citedTimes: 'Cited {n} times in this answer',
  notCited: 'Not cited in the text of this answer',
  showPlaces: 'Show where',
  exportSources: 'Export',
  exportAnswer: 'This answer',
  exportChat: 'Whole chat',
  answer: 'Answer {n}',
  retrievedOnly: 'Retrieved, not cited',
  unreadable: 'Sources were sent with this answer, but they could not be read.',
  interrupted: 'The connection dropped while this answer came in: its sources, if it had any, did not arrive.',
  findSources: 'Find sources in this response',
  findIntro: 'Lists found in the response. Choose the one that holds the sources:',
  findNone: 'No list of sources was found in this response.',
  findNoModel: 'The model of this answer is not known here: open the chat again, then try again.',
  findAtPath: 'At {path}',
  findUnder: 'Under the heading “{heading}”',
  findAfterLine: 'After the separator line',
  findCount: '{n} sources',
  findUse: 'Use this list',
  findSaved: 'Saved for {model} in this browser. To show these sources to every user, give this to your administrator:',
  findBadSaved: 'The sources declared in this browser are not used, as they are not valid: {errors}',
};

export type Messages = typeof ENGLISH;
export type MessageKey = keyof Messages;
/** What a language's module gives: its words, the missing ones English's. */
export type MessagesLoader = (code: string) => Promise<Partial<Messages> | undefined>;

/** Open WebUI 0.12.4's interface languages, in its order: its src/lib/i18n/locales/languages.json
 * (in the installed package, open_webui/frontend/_app/immutable/chunks/, the bundle that lists
 * `{code:"en-US",title:"English (US)"}`; the chunk of src/lib/i18n/index.ts imports one
 * ./locales/<code>/translation.json per code). */
export const OPEN_WEBUI_LANGUAGES = [
  'en-US',
  'en-GB',
  'ar',
  'ar-BH',
  'az-AZ',
  'eu-ES',
  'bn-BD',
  'bs-BA',
  'bo-TB',
  'bg-BG',
  'ca-ES',
  'ceb-PH',
  'hr-HR',
  'cs-CZ',
  'da-DK',
  'nl-NL',
  'et-EE',
  'fi-FI',
  'fo-FO',
  'fr-CA',
  'fr-FR',
  'gl-ES',
  'ka-GE',
  'de-DE',
  'el-GR',
  'he-IL',
  'hi-IN',
  'hu-HU',
  'id-ID',
  'ie-GA',
  'it-IT',
  'ja-JP',
  'kab-DZ',
  'ko-KR',
  'lt-LT',
  'lv-LV',
  'ms-MY',
  'nb-NO',
  'fa-IR',
  'pl-PL',
  'pt-BR',
  'pt-PT',
  'pa-IN',
  'ro-RO',
  'ru-RU',
  'sr-RS',
  'sk-SK',
  'sl-SI',
  'es-ES',
  'sv-SE',
  'fil-PH',
  'ta-IN',
  'th-TH',
  'tr-TR',
  'tk-TM',
  'uk-UA',
  'ur-PK',
  'ug-CN',
  'uz-Cyrl-UZ',
  'uz-Latn-UZ',
  'vi-VN',
  'zh-CN',
  'zh-TW',
  'dg-DG',
] as const;

/** The languages with a module of their own: all of Open WebUI's but its two Englishes, which are ENGLISH. */
export const LOCALES: readonly string[] = OPEN_WEBUI_LANGUAGES.filter((code) => !code.startsWith('en-'));

// No loader set: English only (the browser bundle sets one as it starts, main.ts).
let loadMessages: MessagesLoader = async () => ({});
const loaded = new Map<string, Partial<Messages>>();
const loading = new Map<string, Promise<void>>();

/** Where a language's words come from (the part that holds it, in the browser bundle); forgets those loaded. */
export function setMessagesLoader(loader: MessagesLoader): void {
  loadMessages = loader;
  loaded.clear();
  loading.clear();
}

/** Resolves once the words of `code` (by default the page's language) are in, or English is used
 * instead: a loader that fails or gives nothing leaves English, with one console warning. Never rejects. */
export function languageReady(code: string = locale()): Promise<void> {
  if (!LOCALES.includes(code) || loaded.has(code)) return Promise.resolve(); // English, or no language of ours
  let ready = loading.get(code);
  if (!ready) {
    const settle = (messages: Partial<Messages> | undefined, error?: unknown): void => {
      if (!messages) warnOnce(`language ${code}`, `the words of ${code} could not be loaded: English is used`, error);
      loaded.set(code, messages ?? {});
    };
    ready = Promise.resolve()
      .then(() => loadMessages(code))
      .then(settle, (error: unknown) => settle(undefined, error));
    loading.set(code, ready);
  }
  return ready;
}

// Read once per task: a pass labels hundreds of buttons, and the language changes between tasks.
let current: string | null = null;

/** The page's language as our module's code ("en" for English): Open WebUI keeps the user's
 * language in localStorage.locale (e.g. "fr-FR", "zh-CN") and sets it as the page's lang. */
export function locale(): string {
  if (current === null) {
    current = readLocale();
    queueMicrotask(() => (current = null));
  }
  return current;
}

function readLocale(): string {
  let chosen = '';
  try {
    chosen = localStorage.getItem('locale') ?? '';
  } catch {
    // storage blocked: fall back to the page's language
  }
  return moduleOf(chosen || document.documentElement.lang || navigator.language || 'en');
}

/** The language Open WebUI shows for a code, as its toBundleCode (src/lib/i18n/index.ts) picks it:
 * the code itself (any case), else its language's main region ("de-AT" → de-DE), else the bare
 * language, which i18next falls back to ("ar-SA" → ar), else, for a bare language, its first region
 * ("uz" → uz-Cyrl-UZ); any other ("zh-HK", "nn-NO") is English, as Open WebUI shows it. */
export function moduleOf(chosen: string): string {
  const lower = chosen.toLowerCase();
  const language = lower.split('-')[0]!;
  const code =
    LOCALES.find((code) => code.toLowerCase() === lower) ??
    LOCALES.find((code) => code === `${language}-${language.toUpperCase()}`) ??
    LOCALES.find((code) => code === language) ??
    (lower.includes('-') ? undefined : LOCALES.find((code) => code.startsWith(`${language}-`)));
  return code ?? 'en';
}

// Each message split once into its text and the names of its values ("a {n} b" → ["a ", "n", " b"]):
// a pass names hundreds of buttons, and a regular expression per name was most of its cost.
const split = new Map<string, string[]>();

export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  const code = locale();
  const words = code === 'en' ? undefined : loaded.get(code);
  if (code !== 'en' && !words) void languageReady(code); // English until it is in; the next pass has it
  const template = words?.[key] || ENGLISH[key];
  let parts = split.get(template);
  if (!parts) {
    parts = template.split(/\{(\w+)\}/);
    split.set(template, parts);
  }
  let text = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) text += String(values[parts[i]!] ?? '') + parts[i + 1]!;
  return text;
}
