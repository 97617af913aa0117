/**
 * Lists of sources a backend writes into the answer's text itself, before or after the answer:
 * one line a source (`[1] [title](url)`, `- [2] url`, `1. [title](url)`, `【检索 3】 [title](url)`,
 * `检索 title(url) ...`, `检索 title - url ...`, `*[1. url](url)*`, `> [1]. [title](url)`) or one
 * record of `Title:` / `Snippet:` / `Link:` lines a source. Every item has a web address, but a title
 * alone under a heading (below).
 *
 * A list is `said` to hold sources (and may be taken out of the visible text) when a heading right
 * above it names sources (SOURCE_HEADINGS, in several languages, with or without a markdown
 * heading, bold or a colon), when each line carries a "retrieved" label (`检索`), when it sits in a
 * `<details>` whose summary says it searched, or when a separator line (`---`) stands right above a
 * list numbered `[n]`; or when a declaration (declared.ts) names the heading or the separator above
 * it (ListPlace). A list under a heading (or a declared one) may also hold titles alone, a file's
 * name without an address: formats/text-list.ts reads those only when they are file names or cited. Any
 * other list is only a candidate, read by a format when the answer's markers cite its numbers
 * (formats/text-list.ts).
 *
 * Read forward, each line once, by hand or by sticky regexes whose quantifiers take distinct
 * characters: linear in the text. No list inside a fenced code block.
 */

import { MAX_CITATIONS } from './limits.js';
import { type Budget, finish, type Steps, WHOLE } from './steps.js';
import { isWebUrl } from './urls.js';

export interface ListedSource {
  /** The number the list writes for it; null in an unnumbered list. */
  n: number | null;
  title: string | null;
  /** Null for a title alone (a file's name), under a heading naming sources or a declared one. */
  url: string | null;
  snippet: string | null;
  /** The page a title alone names after it ("handbook.pdf (p. 12)"), else null. */
  page: number | null;
}

/** Where a declaration says its model's answers list their sources: under a heading (its words as
 * headingWords reads them, in any case), or after a separator line. */
export type ListPlace = { kind: 'heading'; heading: string } | { kind: 'separator' };

// A declared heading's length, at most (declared.ts checks the same bound).
const MAX_DECLARED_HEADING = 100;

/** A list place as stored with a citation (untrusted): itself when well formed, else null. */
export function listPlace(value: unknown): ListPlace | null {
  if (typeof value !== 'object' || value === null) return null;
  const { kind, heading } = value as { kind?: unknown; heading?: unknown };
  if (kind === 'separator') return { kind };
  return kind === 'heading' && typeof heading === 'string' && heading.length <= MAX_DECLARED_HEADING
    ? { kind, heading }
    : null;
}

export interface SourceList {
  /** UTF-16 span of the block: its heading, separator or `<details>` included when it has one. */
  start: number;
  end: number;
  /** The heading as it reads on screen ("References:", "### 引用列表" → "引用列表"), when one says sources. */
  heading: string | null;
  /** Whether the text itself says the list is sources (a heading, a label, a separator), or the
   * declaration does: it may be hidden. */
  said: boolean;
  /** Whether the place a declaration names stands right above it. */
  declared: boolean;
  sources: ListedSource[];
}

// A number a list gives its items, at most: "[2024]" opening a line is a year.
const MAX_LIST_NUMBER = 999;
// A heading is a short line: a longer one is a sentence, not read as one.
const MAX_HEADING = 60;
// A title on a line of its own, its address on the next, at most this long.
const MAX_TITLE_LINE = 300;

/**
 * What a heading says when it names a list of sources, lower-cased, without markdown or colon.
 * English, Chinese (simplified and traditional), Japanese, German, French, Spanish, Russian,
 * Korean, Portuguese, Italian.
 */
const SOURCE_HEADINGS = new Set([
  'sources',
  'source',
  'all sources',
  'web sources',
  'sources used',
  'cited sources',
  'references',
  'reference',
  'citations',
  'search results',
  'web search results',
  'bibliography',
  '参考资料',
  '参考來源',
  '参考来源',
  '參考資料',
  '參考來源',
  '参考文献',
  '參考文獻',
  '参考链接',
  '来源',
  '來源',
  '资料来源',
  '資料來源',
  '信息来源',
  '数据来源',
  '引用',
  '引用列表',
  '引用来源',
  '引用文献',
  '搜索结果',
  '搜索结果来自',
  '检索结果',
  '出典',
  '出所',
  '参照',
  '参考',
  '情報源',
  '引用元',
  'ソース',
  '検索結果',
  'quellen',
  'quelle',
  'quellenangaben',
  'referenzen',
  'literatur',
  'belege',
  'suchergebnisse',
  'références',
  'référence',
  'bibliographie',
  'résultats de recherche',
  'fuentes',
  'fuente',
  'referencias',
  'bibliografía',
  'resultados de búsqueda',
  'источники',
  'источник',
  'ссылки',
  'литература',
  'результаты поиска',
  '출처',
  '참고 자료',
  '참고자료',
  '참고 문헌',
  '참고문헌',
  '검색 결과',
  'fontes',
  'fonte',
  'referências',
  'resultados da pesquisa',
  'fonti',
  'fonte',
  'riferimenti',
  'bibliografia',
  'risultati della ricerca',
]);
// A search engine's name before "search results" ("DuckDuckGo Search Results:").
const SEARCH_RESULTS = ' search results';
// A `<summary>` that says the block below lists what was searched ("Searching: [**query**]").
const SEARCHING = /^(?:searching|searched|search|搜索|检索|recherche|suche|búsqueda)\b|^(?:搜索|检索)/i;
// The label a line gives itself as a retrieved result: 检索 ("retrieval"), 搜索 ("search").
const ITEM_LABELS = ['检索', '搜索'];
// Fields of a record, "Title: …", lower-cased.
const RECORD_FIELDS = new Map([
  ['title', 'title'],
  ['snippet', 'snippet'],
  ['description', 'snippet'],
  ['body', 'snippet'],
  ['link', 'url'],
  ['url', 'url'],
  ['href', 'url'],
  ['date', 'other'],
  ['source', 'other'],
]);
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const URL_RUN = /https?:\/\/[^\s<>()]+(?:\([^\s<>()]*\)[^\s<>()]*)*/y;

const isBlank = (c: number): boolean => c === 0x20 || c === 0x09;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** `text` without blanks at both ends, and without a trailing " ..." or "…" (glm/step-free-api). */
function trimEllipsis(text: string): string {
  let end = text.length;
  while (end > 0 && isBlank(text.charCodeAt(end - 1))) end--;
  if (text.endsWith('...', end)) end -= 3;
  else if (text.endsWith('…', end)) end -= 1;
  return text.slice(0, end).trim();
}

// An emoji or pictograph (with its variation selector or joiner) before a heading's words.
const ICON = /^(?:\p{Extended_Pictographic}|\p{Emoji_Presentation})[\u{FE0F}\u{200D}]?/u;

/** How many code units of icon open `text`: 0 when none. */
const leadingIcon = (text: string): number => ICON.exec(text)?.[0].length ?? 0;

/** A heading's words: past a markdown heading's hashes, emphasis, an icon, a trailing colon; null
 * for a line too long to be a heading. */
export function headingWords(line: string): string | null {
  let text = line.trim();
  if (text.length > MAX_HEADING) return null;
  let at = 0;
  while (text[at] === '#' && at < 6) at++;
  if (at > 0 && text[at] !== ' ') return null;
  text = text.slice(at).trim();
  for (let unwrapped = true; unwrapped; ) {
    unwrapped = false;
    const icon = leadingIcon(text);
    if (icon) {
      text = text.slice(icon).trim(); // "📚 Sources", "🔗 **References:**"
      unwrapped = true;
    }
    for (const mark of ['**', '__', '*', '_']) {
      if (text.length > 2 * mark.length && text.startsWith(mark) && text.endsWith(mark)) {
        text = text.slice(mark.length, -mark.length).trim();
        unwrapped = true;
      }
    }
    if (text.endsWith(':') || text.endsWith('：')) {
      text = text.slice(0, -1).trim();
      unwrapped = true;
    }
  }
  return text;
}

/** The heading as it reads on screen, when the line names sources (or is the heading declared,
 * its words lower-cased); null for any other line. */
function sourceHeading(line: string, declared: string | null = null): string | null {
  const words = headingWords(line);
  if (!words) return null;
  const lower = words.toLowerCase();
  const names = SOURCE_HEADINGS.has(lower) || (lower.endsWith(SEARCH_RESULTS) && lower.length < 40);
  if (!names && lower !== declared) return null;
  // On screen: what Open WebUI shows of the line, the markdown gone, a colon kept.
  let shown = line.trim();
  while (shown.startsWith('#')) shown = shown.slice(1);
  return shown.trim().replaceAll('**', '').replaceAll('__', '').trim();
}

/** A line that names sources and lists them after a colon, "Sources: [A](url), [B](url)": the
 * heading and the links (a link named by a number, `[1](url)`, is that number's); null otherwise. */
function inlineSources(line: string): { heading: string; sources: ListedSource[] } | null {
  let colon = -1;
  for (let i = 0; i < Math.min(line.length, MAX_HEADING); i++) {
    if (line[i] === ':' || line[i] === '：') {
      colon = i;
      break;
    }
  }
  const heading = colon > 0 ? sourceHeading(line.slice(0, colon + 1)) : null;
  if (!heading) return null;
  const sources: ListedSource[] = [];
  let at = colon + 1;
  for (;;) {
    while (at < line.length && ' \t,;|·、，；*_'.includes(line[at]!)) at++;
    if (at >= line.length || sources.length >= MAX_CITATIONS) break;
    if (line[at] !== '[') return null;
    const close = line.indexOf('](', at);
    if (close < 0) return null;
    URL_RUN.lastIndex = close + 2;
    const url = URL_RUN.exec(line)?.[0];
    if (!url || line[URL_RUN.lastIndex] !== ')' || !isWebUrl(url)) return null;
    const label = line.slice(at + 1, close).trim();
    const number = /^\d{1,3}$/.test(label) ? Number(label) : null;
    sources.push({ n: number, title: number === null ? plainTitle(label) : null, url, snippet: null, page: null });
    at = URL_RUN.lastIndex + 1;
  }
  return sources.length ? { heading, sources } : null;
}

/** Whether a line is a thematic break: three or more `-`, `*` or `_`, blanks between them. */
function isSeparator(line: string): boolean {
  let mark = '';
  let count = 0;
  for (const c of line) {
    if (c === ' ' || c === '\t') continue;
    if (c !== '-' && c !== '*' && c !== '_') return false;
    if (mark && c !== mark) return false;
    mark = c;
    count++;
  }
  return count >= 3;
}

/** A web address that runs from `at` to the end of `text` (blanks aside), or null. */
function urlAt(text: string, at: number): string | null {
  URL_RUN.lastIndex = at;
  const match = URL_RUN.exec(text);
  if (!match || text.slice(URL_RUN.lastIndex).trim() !== '') return null;
  return isWebUrl(match[0]) ? match[0] : null;
}

/** `[text](url)` at the start of `text`: its text, its address, and what follows it on the line
 * past a dash or colon ("[title](url) — a summary"), or null. */
function leadingLink(text: string): { label: string; url: string; rest: string | null } | null {
  if (!text.startsWith('[')) return null;
  const close = text.indexOf('](');
  if (close < 0) return null;
  URL_RUN.lastIndex = close + 2;
  const match = URL_RUN.exec(text);
  if (!match || text[URL_RUN.lastIndex] !== ')' || !isWebUrl(match[0])) return null;
  let at = URL_RUN.lastIndex + 1;
  while (at < text.length && ' \t-–—:|'.includes(text[at]!)) at++;
  return { label: text.slice(1, close).trim(), url: match[0], rest: text.slice(at).trim() || null };
}

/** A title without the emphasis around it: `**Title**` → `Title`. */
const plainTitle = (title: string): string | null => unemphasised(unemphasised(title.trim())).trim() || null;

/** A number written before an item's text: `[n]`, `[n].`, `【检索 n】`, `n.`, `n)`; where the rest starts. */
function leadingNumber(text: string): { n: number; rest: number; labelled: boolean } | null {
  let at = 0;
  let labelled = false;
  const open = text[0];
  if (open === '[' || open === '【') {
    at = 1;
    for (const label of ITEM_LABELS) {
      if (open === '【' && text.startsWith(label, at)) {
        at += label.length;
        labelled = true;
      }
    }
    while (isBlank(text.charCodeAt(at))) at++;
  }
  const from = at;
  while (at - from < 4 && isDigit(text.charCodeAt(at))) at++;
  if (at === from) return null;
  const n = Number(text.slice(from, at));
  if (open === '[' || open === '【') {
    if (text[at] !== (open === '[' ? ']' : '】')) return null;
    at++;
    if (text[at] === '.' || text[at] === ':') at++;
  } else if (text[at] === '.' || text[at] === ')') at++;
  else return null;
  if (at < text.length && !isBlank(text.charCodeAt(at))) return null;
  return n > MAX_LIST_NUMBER ? null : { n, rest: at, labelled };
}

/** `text` without one layer of emphasis around it: `*…*`, `_…_`, `**…**`. */
function unemphasised(text: string): string {
  for (const mark of ['**', '*', '_']) {
    if (text.length > 2 * mark.length + 1 && text.startsWith(mark) && text.endsWith(mark))
      return text.slice(mark.length, -mark.length);
  }
  return text;
}

interface Item {
  n: number | null;
  labelled: boolean;
  title: string | null;
  url: string;
  snippet: string | null;
  /** Whether the line has a bullet, a number or a label of its own (else it may continue the one above). */
  marked: boolean;
}

/** What follows an item's number or label: a link, a bare address, or, when `loose` (a line
 * labelled as a result, or under a heading naming sources), `title(url)` or `title - url`. */
function itemBody(raw: string, loose: boolean): Omit<Item, 'labelled' | 'marked'> | null {
  const text = trimEllipsis(unemphasised(raw.trim()));
  const link = leadingLink(text);
  if (link) {
    // freeaskinternet's "[1. url](url)": the number inside the link's text.
    const inner = leadingNumber(link.label);
    const label = inner ? link.label.slice(inner.rest).trim() : link.label;
    const title = label && label !== link.url ? plainTitle(label) : null;
    return { title, url: link.url, n: inner?.n ?? null, snippet: link.rest };
  }
  if (text.startsWith('http')) {
    // A bare address, or a link definition's: `[1]: url "title"`.
    URL_RUN.lastIndex = 0;
    const url = URL_RUN.exec(text)?.[0] ?? '';
    const after = text.slice(url.length).trim();
    const quoted = after.length > 1 && ['""', "''", '()'].includes(`${after[0]}${after.at(-1)}`);
    if (!isWebUrl(url) || (after && !quoted)) return null;
    return { title: quoted ? plainTitle(after.slice(1, -1)) : null, url, n: null, snippet: null };
  }
  if (!loose) return null;
  if (text.endsWith(')')) {
    const open = text.lastIndexOf('(http');
    const url = open > 0 ? text.slice(open + 1, -1) : '';
    if (isWebUrl(url) && !/\s/.test(url))
      return { title: plainTitle(text.slice(0, open)), url, n: null, snippet: null };
  }
  for (const between of [' - ', ' — ', ': ']) {
    const at = text.lastIndexOf(`${between}http`);
    const url = at > 0 ? urlAt(text, at + between.length) : null;
    if (url) return { title: plainTitle(text.slice(0, at)), url, n: null, snippet: null };
  }
  // `title url`: a blank between them, dashes or a colon before it left out.
  const blank = text.lastIndexOf(' http');
  const url = blank > 0 ? urlAt(text, blank + 1) : null;
  return url ? { title: plainTitle(withoutSeparators(text.slice(0, blank))), url, n: null, snippet: null } : null;
}

/** A title without the dashes, colons and blanks that separate it from what follows. */
function withoutSeparators(title: string): string {
  let end = title.length;
  while (end > 0 && ' \t-–—:|'.includes(title[end - 1]!)) end--;
  return title.slice(0, end);
}

/** A list item's parts: past a quote's `>`, a bullet, a number or a label, its text. */
function itemParts(line: string): { n: number | null; labelled: boolean; marked: boolean; text: string } {
  let at = 0;
  while (isBlank(line.charCodeAt(at))) at++;
  while (line[at] === '>') {
    at++;
    while (isBlank(line.charCodeAt(at))) at++;
  }
  const bullet = line[at];
  const bulleted = (bullet === '-' || bullet === '*' || bullet === '+') && isBlank(line.charCodeAt(at + 1));
  if (bulleted) {
    at += 2;
    while (isBlank(line.charCodeAt(at))) at++;
  }
  const text = line.slice(at);
  const number = leadingNumber(text);
  if (number) return { n: number.n, labelled: number.labelled, marked: true, text: text.slice(number.rest) };
  for (const label of ITEM_LABELS) {
    if (text.startsWith(`${label} `))
      return { n: null, labelled: true, marked: true, text: text.slice(label.length + 1) };
  }
  return { n: null, labelled: false, marked: bulleted, text };
}

/** A line that is one source, or null. */
function itemLine(line: string, underHeading: boolean): Item | null {
  const { n, labelled, marked, text } = itemParts(line);
  const body = itemBody(text, labelled || underHeading);
  return body && { ...body, n: n ?? body.n, labelled, marked };
}

/** A list item holding only a title, whose address is on the next line (under a heading naming
 * sources): "1. Rhine - Wikipedia" then "   https://…"; in a declared list, of any length (it may be
 * a source of its own, a file's name). No link: "- [A](javascript:…)" is no title. */
function titleLine(line: string, declared: boolean): { n: number | null; title: string } | null {
  const { n, marked, text } = itemParts(line);
  const title = plainTitle(withoutSeparators(text));
  const fits = declared || (title !== null && title.length <= MAX_TITLE_LINE);
  return marked && title && fits && !title.includes('http') && !title.includes('](') ? { n, title } : null;
}

// A page written after a title: "p. 12", "pp. 3", "page 12", "S. 12", "Seite 12", "第12页".
const PAGE = /^(?:pp?\.|pages?|s\.|seite)[ \t]?(\d{1,5})$|^第(\d{1,5})[页頁]$/i;

/** A title alone and the page written after it, in parentheses or past a comma or dash
 * ("handbook.pdf (p. 12)", "Annual report, p. 3"); the page only when it is clearly one. */
function pagedTitle(written: string): { title: string; page: number | null } {
  const paren =
    written.endsWith(')') || written.endsWith('）')
      ? Math.max(written.lastIndexOf('('), written.lastIndexOf('（'))
      : -1;
  let cut = paren;
  let tail = paren > 0 ? written.slice(paren + 1, -1).trim() : '';
  if (paren <= 0)
    for (const between of [', ', ' - ', ' – ', ' — ', '，']) {
      const at = written.lastIndexOf(between);
      if (at > cut) {
        cut = at;
        tail = written.slice(at + between.length).trim();
      }
    }
  const match = cut > 0 ? PAGE.exec(tail) : null;
  const title = match ? plainTitle(withoutSeparators(written.slice(0, cut))) : null;
  return title ? { title, page: Number(match![1] ?? match![2]) } : { title: written, page: null };
}

/** A record's line, "Title: …": its field and value, or null. */
function recordLine(line: string): { field: string; value: string } | null {
  const colon = line.indexOf(':');
  if (colon < 1 || colon > 12) return null;
  const field = RECORD_FIELDS.get(line.slice(0, colon).trim().toLowerCase());
  return field ? { field, value: line.slice(colon + 1).trim() } : null;
}

interface Open {
  start: number;
  end: number;
  heading: string | null;
  said: boolean;
  declared: boolean;
  separator: boolean;
  labelled: boolean;
  sources: ListedSource[];
}

/** Every list of sources in the text, in the text's order; `place`, where a declaration says the
 * list is (its list is said to be sources). */
export const sourceLists = (text: string, place: ListPlace | null = null): SourceList[] =>
  finish(sourceListSteps(text, place, WHOLE));

/** sourceLists in steps (steps.ts), spending a line's length on each line read. */
export function* sourceListSteps(text: string, place: ListPlace | null, budget: Budget): Steps<SourceList[]> {
  if (typeof text !== 'string') return [];
  const declaredHeading = place?.kind === 'heading' ? (headingWords(place.heading)?.toLowerCase() ?? null) : null;
  const lists: SourceList[] = [];
  let open: Open | null = null;
  // What stands right above the next list: a heading naming sources, a separator, a `<details>`.
  let above: { start: number; heading: string | null; separator: boolean; details: boolean; declared: boolean } | null =
    null;
  let details: number | null = null; // where an open `<details>` starts
  let summary = false; // between `<summary>` and `</summary>`
  let record: { start: number; end: number; title: string | null; url: string | null; snippet: string | null } | null =
    null;
  let fence: string | null = null;
  let count = 0;
  // A list item's title whose address may be on the next line (else a source of its own), where
  // its line starts and ends.
  let titleFirst: { n: number | null; title: string; from: number; to: number } | null = null;

  const close = (): void => {
    if (open?.sources.length) {
      const { start, end, heading, declared, sources } = open;
      const said =
        open.said || declared || open.labelled || (open.separator && open.sources.every((s) => s.n !== null));
      lists.push({ start, end, heading, said, declared, sources });
    }
    open = null;
  };
  const add = (source: ListedSource, from: number, to: number): void => {
    if (!open) {
      open = {
        start: above ? above.start : from,
        end: to,
        heading: above?.heading ?? null,
        said: Boolean(above?.heading) || Boolean(above?.details),
        declared: Boolean(above?.declared),
        separator: Boolean(above?.separator),
        labelled: true,
        sources: [],
      };
      above = null;
    }
    if (++count > MAX_CITATIONS) return;
    open.sources.push(source);
    open.end = to;
  };
  // A title with no address after it: a source of its own, in a declared list or one of titles; a
  // line after links ("- Ask me for more.") is no source, and the list ended above it.
  const addTitle = (titled: NonNullable<typeof titleFirst>): void => {
    const opened = open as Open | null;
    if (opened && !opened.declared && opened.sources.some((s) => s.url)) {
      close();
      return;
    }
    add({ n: titled.n, ...pagedTitle(titled.title), url: null, snippet: null }, titled.from, titled.to);
    if (open) (open as Open).labelled = false;
  };
  const closeRecord = (): void => {
    if (record?.url && record.title) {
      const { title, url, snippet } = record;
      add({ n: null, title, url, snippet, page: null }, record.start, record.end);
      if (open) open.labelled = false;
    } else if (record) close();
    record = null;
  };

  for (let from = 0; from <= text.length; ) {
    let newline = text.indexOf('\n', from);
    if (newline < 0) newline = text.length;
    const to = text.charCodeAt(newline - 1) === 0x0d && newline > from ? newline - 1 : newline;
    const line = text.slice(from, to);
    const lineStart = from;
    from = newline + 1;
    if (budget.spend(line.length + 1)) yield;

    const fenceRun = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (fenceRun && fenceRun[0] === fence[0] && fenceRun.length >= fence.length) fence = null;
      continue;
    }
    if (fenceRun) {
      closeRecord();
      close();
      above = null;
      fence = fenceRun;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '') {
      closeRecord();
      continue;
    }
    const field = recordLine(trimmed);
    if (field) {
      record ??= { start: lineStart, end: to, title: null, url: null, snippet: null };
      record.end = to;
      if (field.field === 'title') record.title = field.value || null;
      else if (field.field === 'url') record.url = isWebUrl(field.value) ? field.value : null;
      else if (field.field === 'snippet') record.snippet = field.value || null;
      continue;
    }
    closeRecord();
    const lower = trimmed.toLowerCase();
    if (lower === '<details>' || lower.startsWith('<details ')) {
      close();
      details = lineStart;
      continue;
    }
    if (details !== null && (lower === '<summary>' || lower.startsWith('<summary>'))) {
      summary = true;
      const inline = trimmed.slice('<summary>'.length);
      const end = inline.toLowerCase().indexOf('</summary>');
      if (end >= 0) {
        summary = false;
        if (SEARCHING.test(inline.slice(0, end).trim()))
          above = { start: details, heading: null, separator: false, details: true, declared: false };
      }
      continue;
    }
    if (summary) {
      if (lower === '</summary>') summary = false;
      else if (SEARCHING.test(trimmed))
        above = { start: details ?? lineStart, heading: null, separator: false, details: true, declared: false };
      continue;
    }
    if (lower === '</details>') {
      if (open && details !== null && (open as Open).start === details) (open as Open).end = to;
      close();
      details = null;
      continue;
    }
    const declared = open ? (open as Open).declared : Boolean(above?.declared);
    const underHeading = declared || (open ? (open as Open).heading !== null : Boolean(above?.heading));
    const item = itemLine(line, underHeading);
    const titled = titleFirst;
    titleFirst = null;
    if (item) {
      const wasOpen = open !== null;
      const split = titled && !item.marked && item.title === null && item.snippet === null ? titled : null;
      if (titled && !split) addTitle(titled);
      const source = {
        n: split?.n ?? item.n,
        title: split?.title ?? item.title,
        url: item.url,
        snippet: item.snippet,
        page: null,
      };
      add(source, split?.from ?? lineStart, to);
      if (open) (open as Open).labelled &&= item.labelled;
      if (!wasOpen && open && !item.labelled) (open as Open).labelled = false;
      continue;
    }
    if (titled) addTitle(titled);
    const title = underHeading ? titleLine(line, declared) : null;
    if (title) {
      titleFirst = { ...title, from: lineStart, to };
      continue;
    }
    if (isSeparator(trimmed)) {
      // A separator closing a list said to be sources (PandaWiki's "---" after its list) is part of it.
      const closing = open as Open | null;
      if (closing?.said && closing.heading) closing.end = to;
      close();
      above = {
        start: lineStart,
        heading: null,
        separator: true,
        details: false,
        declared: place?.kind === 'separator',
      };
      continue;
    }
    const inline = inlineSources(trimmed);
    if (inline) {
      // "Sources: [A](url), [B](url)": a heading and its list on one line.
      close();
      above = { start: lineStart, heading: inline.heading, separator: false, details: false, declared: false };
      for (const source of inline.sources) add(source, lineStart, to);
      if (open) (open as Open).labelled = false;
      close();
      continue;
    }
    const heading = sourceHeading(trimmed, declaredHeading);
    close();
    if (heading) {
      // A heading right under a separator (FreeAskInternet's "---" then "参考资料:"): the block opens
      // at the separator, and a declared separator still stands above the list.
      const separator = above as { start: number; separator: boolean; declared: boolean } | null;
      above = {
        start: separator?.separator ? separator.start : lineStart,
        heading,
        separator: false,
        details: false,
        declared:
          (separator?.separator && separator.declared) || headingWords(trimmed)?.toLowerCase() === declaredHeading,
      };
      continue;
    }
    above = null;
  }
  if (titleFirst) addTitle(titleFirst);
  closeRecord();
  close();
  return lists;
}
