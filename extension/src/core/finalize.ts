/** Drafts of one payload → numbered, de-duplicated, safe citations. */

import { untitledSource } from './i18n.js';
import { boundField, boundFile, boundId, boundList, boundSnippet, MAX_ANCHORS, MAX_REFS } from './limits.js';
import type { Citation, Draft, ExtractOptions } from './model.js';
import { verifyQuote } from './quote.js';
import { fileName, safeUrl, urlLabel } from './urls.js';

/** One source met twice (several chunks, annotations or stream chunks): best score, all pages, all refs. */
function merge(into: Citation, draft: Citation): void {
  const better = draft.score !== null && (into.score === null || draft.score > into.score);
  if (better) {
    into.score = draft.score;
    into.scoreKind = draft.scoreKind;
  }
  // A quote's offsets index the snippet it was checked against: the two are taken together.
  if (draft.quote && (into.quote === null || better)) {
    into.quote = draft.quote;
    into.snippet = draft.snippet ?? into.snippet;
  } else if (better && into.quote === null) {
    into.snippet = draft.snippet ?? into.snippet;
  }
  into.pages = [...new Set([...into.pages, ...draft.pages])].sort((x, y) => x - y);
  const last = Math.max(into.pageEnd ?? -Infinity, draft.pageEnd ?? -Infinity, into.pages.at(-1) ?? -Infinity);
  into.page = into.pages[0] ?? null;
  into.pageEnd = into.page !== null && last > into.page ? last : null;
  // Both are within their caps already; what is merged keeps them (the first ones, as given).
  if (into.refs.length < MAX_REFS) into.refs = boundList([...new Set([...into.refs, ...draft.refs])], MAX_REFS);
  if (into.anchors.length < MAX_ANCHORS)
    into.anchors.push(...draft.anchors.slice(0, MAX_ANCHORS - into.anchors.length));
  into.title ||= draft.title;
  into.url ??= draft.url;
  into.snippet ??= draft.snippet;
  into.date ??= draft.date;
}

/** The first that is not blank: a file "/ " or the URL "/" label as blank text. */
function title(
  given: string | null | undefined,
  file: string | null | undefined,
  url: string | null,
  locale: string | undefined,
): string {
  // Each candidate read only when those before it are blank: parsing the URL is the costly one.
  const candidates = [() => given, () => (file ? fileName(file) : null), () => (url ? urlLabel(url) : null)];
  for (const candidate of candidates) {
    const text = candidate()?.trim();
    if (text) return boundField(text);
  }
  return untitledSource(locale);
}

/**
 * Open WebUI drops NUL bytes and lone surrogates from what it stores (utils/misc.py,
 * sanitize_text_for_db): a citation's text has them replaced by U+FFFD when it is read, so a
 * source looks the same before and after a reload, and two sources that differ only there
 * stay two (Open WebUI numbers [N] by the sources it stored).
 */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// Checked first without lookarounds: almost every text has neither, and the replace costs more.
const SURROGATE_OR_NUL = /[\u0000\uD800-\uDFFF]/;
const storable = <T extends string | null | undefined>(text: T): T =>
  (typeof text === 'string' && SURROGATE_OR_NUL.test(text) ? text.replace(UNSTORABLE, '\uFFFD') : text) as T;

function toCitation(draft: Draft, format: string, options: ExtractOptions): Citation {
  // The draft's fields are read one by one, not copied with a spread: spreading drafts of
  // many shapes was most of the time of a large payload (docs/performance.md).
  // Texts are cut to their bounds (limits.ts) after `storable`, on code-point boundaries.
  const id = boundId(storable(draft.id));
  const url = safeUrl(draft.url);
  const page = draft.page ?? null;
  const given = storable(draft.snippet);
  const text = given?.trim() ? given : null;
  const verified = draft.quote?.text
    ? verifyQuote(storable(draft.quote.text), draft.quote.start, draft.quote.end, text)
    : null;
  const { snippet, quote } = boundSnippet(text, verified);
  return {
    index: 0,
    id,
    title: title(storable(draft.title), boundFile(storable(draft.file)), url, options.locale),
    url,
    snippet,
    score: draft.score ?? null,
    scoreKind: draft.score === null || draft.score === undefined ? null : (draft.scoreKind ?? 'raw'),
    page,
    pageEnd:
      draft.pageEnd !== null && draft.pageEnd !== undefined && page !== null && draft.pageEnd > page
        ? draft.pageEnd
        : null,
    pages: page === null ? [] : [page],
    quote,
    kind: draft.kind,
    format,
    refs: boundList(draft.refs ?? [], MAX_REFS),
    anchors: boundList(draft.anchors ?? [], MAX_ANCHORS),
    date: boundField(storable(draft.date)) ?? null,
    ...(draft.listedUnder ? { listedUnder: draft.listedUnder } : {}),
  };
}

export function finalize(drafts: Draft[], ordered: boolean, format: string, options: ExtractOptions): Citation[] {
  const byId = new Map<string, Citation>();
  for (const draft of drafts) {
    let citation: Citation;
    try {
      citation = toCitation(draft, format, options);
    } catch {
      continue; // one source the core could not read costs that source, not the payload's others
    }
    const existing = byId.get(citation.id);
    if (existing) merge(existing, citation);
    else byId.set(citation.id, citation);
  }
  const citations = [...byId.values()];
  if (!ordered) citations.sort((a, b) => (b.score ?? -Infinity) - (a.score ?? -Infinity));
  citations.forEach((citation, i) => {
    citation.index = i + 1;
  });
  return citations;
}
