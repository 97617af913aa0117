/**
 * Sources a backend writes into the answer's text and no field of the payload holds: a list of
 * links before or after the answer (source-lists.ts), as gateways, proxies and prompts write them
 * (Higress's `**References:**`, Hayhooks' `### All Sources:`, the *-free-api proxies' `检索` lines,
 * PandaWiki's `### 引用列表`, a `<details>` of Bing's searches, `Title:`/`Link:` records).
 *
 * Read when the text says the list is sources (a heading, a label, a separator: markers.ts then
 * hides it in the page), or else when the answer's markers cite the list's numbers (it is then
 * shown as sources and left in place). An answer that ends with links it does not cite is not read.
 * The list's numbers, or its order when it has none, are matched to the markers: a list numbered
 * from 0 that the text cites from 1, or the reverse, is shifted by one.
 *
 * A list under such a heading may name sources without an address, by a title or a file's name
 * (a RAG server's "Sources:\n1. handbook.pdf (p. 12)"): read only when each of those is a file's
 * name or the answer's markers cite the list, since a bibliography or reading list the user asked
 * for is a list of titles under a heading too.
 */

import { firstChoice, type JsonObject, obj } from '../json.js';
import { citedNumberSteps } from '../markers.js';
import type { Draft, Format, FormatRead } from '../model.js';
import { type ListedSource, type SourceList, sourceListSteps } from '../source-lists.js';
import { type Budget, finish, type Steps, WHOLE } from '../steps.js';
import { isFileName } from '../urls.js';

// Lists no heading names that are matched to the markers, at most.
const MAX_CANDIDATES = 8;

/** The numbers the list gives its items: their own, else their place from `base`. */
const listNumbers = (sources: readonly ListedSource[], base: number): number[] =>
  sources.map((source, i) => source.n ?? i + base);

/** Whether every number cited lies in [first, first + count). */
const within = (cited: ReadonlySet<number>, first: number, count: number): boolean =>
  [...cited].every((n) => n >= first && n < first + count);

/** The list's numbers as the text's markers use them, or null when they cite none of them: its
 * own, or shifted by one when that puts every number cited in the list and its own do not. */
function matchedNumbers(list: SourceList, cited: ReadonlySet<number>): number[] | null {
  const own = listNumbers(list.sources, 1);
  const first = own.reduce((a, b) => Math.min(a, b));
  const citesAny = (numbers: number[]): boolean => numbers.some((n) => cited.has(n));
  for (const shift of [0, 1, -1]) {
    const shifted = shift ? own.map((n) => n + shift) : own;
    if (first + shift >= 0 && within(cited, first + shift, own.length) && citesAny(shifted)) return shifted;
  }
  return citesAny(own) ? own : null;
}

/** Where the list was read, for the console line that names it to the backend's author. */
function where(list: SourceList, text: string): string {
  const place = list.end >= text.trimEnd().length ? 'after the answer' : 'before the answer';
  const under = list.heading ? `under "${list.heading}"` : list.said ? 'labelled as results' : 'cited by number';
  const items = list.sources.every((s) => s.url) ? 'links' : 'sources';
  return `the answer's text: a list of ${list.sources.length} ${items} ${place}, ${under}`;
}

/** A source of a list in the text as a draft, numbered n (a title alone, in a declared list: a document). */
export function listedDraft(source: ListedSource, n: number | null): Draft {
  return {
    id: source.url ?? `#${n}`,
    title: source.title,
    url: source.url,
    snippet: source.snippet,
    kind: source.url ? 'web' : 'document',
    page: source.page,
    refs: n === null ? [] : [n],
  };
}

/** The sources a list in the answer's text gives, in steps (../steps.ts): the text is read for its
 * lists, then for its markers once per candidate list. */
export function* textListSteps(text: string, budget: Budget): Steps<FormatRead> {
  const lists = yield* sourceListSteps(text, null, budget);
  // A list said to be sources, whose titles alone (if any) are file names; any other, when cited.
  const said = lists.find(
    (list) => list.said && list.sources.every((s) => s.url || (s.title !== null && isFileName(s.title))),
  );
  // Each candidate reads the text's markers again: a few, whatever a hostile text holds.
  let chosen = said;
  for (const list of said ? [] : lists.slice(0, MAX_CANDIDATES)) {
    if (matchedNumbers(list, yield* citedNumberSteps(text, [list], budget))) {
      chosen = list;
      break;
    }
  }
  if (!chosen) return null;
  const cited = yield* citedNumberSteps(text, [chosen], budget);
  const numbers = matchedNumbers(chosen, cited) ?? listNumbers(chosen.sources, 1);
  const drafts = chosen.sources.map((source, i) => listedDraft(source, numbers[i]!));
  return { drafts, ordered: true, field: where(chosen, text) };
}

/** The answer's text, as the reader reads it. */
function answerText(payload: JsonObject): string {
  const message = obj(firstChoice(payload)?.message) ?? obj(firstChoice(payload)?.delta);
  return typeof message?.content === 'string' ? message.content : '';
}

export const textList: Format = {
  name: 'text-list',
  extract: (payload) => finish(textListSteps(answerText(payload), WHOLE)),
  steps: (payload, budget) => textListSteps(answerText(payload), budget),
};
