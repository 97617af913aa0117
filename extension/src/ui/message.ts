/**
 * Applies the citation UI to one rendered answer (`#message-<id>`): numbered buttons for
 * every inline marker, cited links and Open WebUI's own citation buttons, the source list,
 * and the source blocks made redundant by it. Idempotent, and undone piece by piece when
 * Svelte replaces the nodes it was attached to.
 */

import {
  answerTags,
  type Citation,
  citationNumbers,
  linkMarkers,
  type MarkerSpan,
  mayHoldMarker,
  opensFootnoteDefinition,
  safeUrl,
  splitCited,
  writtenMarker,
} from '../core/index.js';
import { answerContainer, proseBlocks } from './answer.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { listKey, retrievedList, sourceList } from './list.js';
import { nativeButtonTarget, nativeInlineButtons, nativeStrip } from './native.js';
import { settings, settingsKey } from './settings.js';

/** Nodes we added next to a node of Open WebUI's, removed when that node goes away. */
interface Attachment {
  origin: Node;
  added: Node[];
  /** For a text node we split: the text we left in it. Svelte rewriting it undoes our split. */
  text?: string;
  /** The buttons among `added`, each group with how it finds its sources again (renumber). */
  placed?: Placed[];
}
// Keyed by the message's element: when Open WebUI drops the element, its records go with it.
const attachments = new WeakMap<Element, Attachment[]>();

function attach(message: Element, origin: Node, added: Node[]): Attachment {
  const list = attachments.get(message) ?? [];
  const attachment = { origin, added, ...(origin instanceof Text ? { text: origin.data } : {}) };
  list.push(attachment);
  attachments.set(message, list);
  return attachment;
}

function detachOrphans(message: Element): void {
  const list = attachments.get(message);
  if (!list) return;
  attachments.set(
    message,
    list.filter((a) => {
      if (a.origin.isConnected && (a.text === undefined || (a.origin as Text).data === a.text)) return true;
      a.added.forEach((node) => (node as ChildNode).remove());
      return false;
    }),
  );
}

function showCitation(button: HTMLButtonElement, citation: Citation): HTMLButtonElement {
  button.setAttribute('data-owc-index', String(citation.index));
  button.setAttribute('aria-label', t('source', { n: citation.index, title: citation.title }));
  button.textContent = String(citation.index);
  return button;
}

let citeTemplate: HTMLButtonElement | undefined; // copied: an answer may need hundreds
function citeButton(citation: Citation): HTMLButtonElement {
  citeTemplate ??= el('button', { type: 'button', class: 'owc-cite' });
  return showCitation(citeTemplate.cloneNode() as HTMLButtonElement, citation);
}

/** A number the text cites that names no source the backend sent: shown muted, not clickable,
 * rather than as a raw "[7]" or not at all (Open WebUI draws nothing for it). */
const unnamedMark = (n: number): HTMLElement =>
  el('span', { class: 'owc-unnamed', title: t('unnamed', { n }), 'data-owc-unnamed': n }, String(n));

const citedBy = (indices: number[], byIndex: Map<number, Citation>): Citation[] =>
  indices.map((i) => byIndex.get(i)).filter((c): c is Citation => !!c);

const buttonsFor = (indices: number[], byIndex: Map<number, Citation>): HTMLButtonElement[] =>
  citedBy(indices, byIndex).map(citeButton);

/** What a pass links against; a placed button finds its sources in it again. */
interface View {
  citations: readonly Citation[];
  byIndex: Map<number, Citation>;
  /** Which citation a URL names: the core's rule, as the list's cited and retrieved are told apart. */
  byUrl: ReadonlyMap<string, number>;
  contentSpans: readonly MarkerSpan[];
}

/** Buttons placed for one marker, and how they find their sources again: an answer's citations
 * can change once its buttons are placed (a stored copy read before our sources were stored). */
interface Placed {
  buttons: HTMLButtonElement[];
  find: (view: View) => number[];
  /** Marks for the numbers that named no source, and which of them still name none. */
  unnamed?: { marks: HTMLElement[]; find: (view: View) => readonly number[] };
}

function place(
  attachment: Attachment,
  buttons: HTMLButtonElement[],
  find: Placed['find'],
  unnamed?: Placed['unnamed'],
): void {
  if (!buttons.length && !unnamed?.marks.length) return;
  attachment.placed ??= [];
  attachment.placed.push({ buttons, find, ...(unnamed?.marks.length ? { unnamed } : {}) });
}

/** The citation a producer's reference number n (a footnote, a tag) stands for. */
const citing = (citations: readonly Citation[], n: number): Citation | undefined =>
  citations.find((c) => c.refs.includes(n));
const indexOf = (citation: Citation | undefined): number[] => (citation ? [citation.index] : []);
const citingRef = (n: number) => (view: View) => indexOf(citing(view.citations, n));

/** Puts each placed button's sources right after the message's citations changed: buttons are
 * renumbered in place; one a marker no longer needs goes, one more goes after the others. */
function renumber(message: Element, view: View): void {
  for (const attachment of attachments.get(message) ?? []) {
    for (const placed of attachment.placed ?? []) {
      const cited = citedBy(placed.find(view), view.byIndex);
      placed.buttons.slice(cited.length).forEach((button) => button.remove());
      const same = placed.buttons.slice(0, cited.length).map((button, k) => showCitation(button, cited[k]!));
      // A clone keeps the group's data-owc-span / data-owc-link; none is needed when none is kept.
      const more = cited
        .slice(same.length)
        .map((citation) =>
          same[0] ? showCitation(same[0].cloneNode() as HTMLButtonElement, citation) : citeButton(citation),
        );
      if (same.length) same.at(-1)!.after(...more);
      else placed.unnamed?.marks[0]?.before(...more); // a marker that named no source names one now
      attachment.added.push(...more);
      placed.buttons = [...same, ...more];
      if (placed.unnamed) {
        const still = new Set(placed.unnamed.find(view));
        placed.unnamed.marks = placed.unnamed.marks.filter((mark) => {
          const unnamed = still.has(Number(mark.dataset.owcUnnamed));
          if (!unnamed) mark.remove();
          return unnamed;
        });
      }
    }
  }
}

/** The citations the message's buttons and list show, as far as they show them. */
const shown = new WeakMap<Element, { citations: readonly Citation[]; key: string }>();
const citationsKey = (citations: readonly Citation[]): string =>
  citations.map((c) => `${c.index}\u0000${c.id}\u0000${c.title}\u0000${c.refs.join()}`).join('\u0001');

/** Whether the citations differ from those the message shows; records them as shown. */
function changed(message: Element, citations: readonly Citation[]): boolean {
  const before = shown.get(message);
  if (before?.citations === citations) return false;
  const key = citationsKey(citations);
  shown.set(message, { citations, key });
  return before !== undefined && before.key !== key;
}

// A pass runs at every change of the message: its spans are found once per text and citations.
const knownSpans = new WeakMap<readonly Citation[], { content: string; spans: readonly MarkerSpan[] }>();
function spansOf(content: string, citations: readonly Citation[]): readonly MarkerSpan[] {
  const known = knownSpans.get(citations);
  if (known?.content === content) return known.spans;
  const spans = linkMarkers(content, citations);
  knownSpans.set(citations, { content, spans });
  return spans;
}

/** Our own lists under the answer: never read as the answer's text. */
const LISTS = '.owc-sources, .owc-retrieved';
const SKIPPED = `pre, code, .owc-hidden, ${LISTS}, button, a, [contenteditable]`;

/** Text markers ([1], [doc1], 【1】…) and OpenRAG tags in the text nodes of the answer. */
function linkTextMarkers(
  message: Element,
  root: Element,
  citations: readonly Citation[],
  byIndex: Map<number, Citation>,
): void {
  // Skipped subtrees are left whole, not each text node's ancestors searched (hundreds of links).
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, (node) => {
    if (node instanceof Element) return node.matches(SKIPPED) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP;
    return mayHoldMarker((node as Text).data) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP;
  });
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
  for (const node of nodes) {
    const spans = linkMarkers(node.data, citations, { anchors: false });
    if (spans.length === 0) continue;
    const added: Node[] = [];
    const placed: Array<{ buttons: HTMLButtonElement[]; marks: HTMLElement[]; written: string }> = [];
    let cursor = node;
    let consumed = 0;
    for (const span of spans) {
      const marker = cursor.splitText(span.start - consumed);
      const rest = marker.splitText(span.end - span.start);
      const buttons = span.kind === 'hide' ? [] : buttonsFor(span.indices, byIndex);
      const marks = (span.unnamed ?? []).map(unnamedMark);
      placed.push({ buttons, marks, written: marker.data });
      const replacement =
        span.kind === 'hide' ? [el('span', { class: 'owc-hidden' }, marker.data)] : [...buttons, ...marks];
      marker.replaceWith(...replacement);
      added.push(...replacement, rest);
      cursor = rest;
      consumed = span.end;
    }
    const attachment = attach(message, node, added); // once split: the text it keeps is its own
    for (const { buttons, marks, written } of placed) {
      const markerIn = (view: View) =>
        linkMarkers(written, view.citations, { anchors: false }).find((s) => s.kind === 'marker');
      place(attachment, buttons, (view) => markerIn(view)?.indices ?? [], {
        marks,
        find: (view) => markerIn(view)?.unnamed ?? [],
      });
    }
  }
}

/** The text nodes of an answer block in reading order, with where each starts in their joined text. */
function textNodes(root: Element): Array<{ node: Text; start: number }> {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, (node) =>
    node instanceof Element
      ? node.matches(`pre, code, .owc-hidden, ${LISTS}, button, .owc-unnamed`)
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_SKIP
      : NodeFilter.FILTER_ACCEPT,
  );
  const nodes: Array<{ node: Text; start: number }> = [];
  let length = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push({ node: node as Text, start: length });
    length += (node as Text).data.length;
  }
  return nodes;
}

/** Hides [from, to) of the joined text, across nodes (Open WebUI links the URLs inside a tag);
 * returns the last element it hid, where a button for the range goes. */
function hideRange(
  message: Element,
  nodes: Array<{ node: Text; start: number }>,
  from: number,
  to: number,
): Element | null {
  let last: Element | null = null;
  for (let i = nodes.length - 1; i >= 0; i--) {
    const { node, start } = nodes[i]!;
    const a = Math.max(from, start) - start;
    const b = Math.min(to, start + node.data.length) - start;
    if (a >= b) continue;
    if (b < node.data.length) node.splitText(b);
    const part = a > 0 ? node.splitText(a) : node;
    const link = part.parentElement?.closest('a');
    let hidden: Element;
    if (link && link.textContent === part.data) {
      hidden = link; // an auto-linked URL inside a tag: the whole link goes
      hidden.classList.add('owc-hidden');
    } else {
      hidden = el('span', { class: 'owc-hidden' });
      part.replaceWith(hidden);
      hidden.append(part);
      attach(message, node === part ? hidden : node, [hidden]);
    }
    last ??= hidden;
  }
  return last;
}

/** Brave's `<citation>{…}</citation>` tags become numbered buttons; its other tags are hidden.
 * Open WebUI shows them as text, so they are found in the block's joined text. */
function linkTags(message: Element, root: Element, citations: readonly Citation[]): void {
  for (const block of root.querySelectorAll('p, li, h1, h2, h3, h4, h5, h6, td')) {
    if (!block.textContent?.includes('</')) continue;
    const nodes = textNodes(block);
    const text = nodes.map(({ node }) => node.data).join('');
    for (const tag of answerTags(text).reverse()) {
      // from the end: earlier offsets stay valid
      const at = hideRange(message, nodes, tag.start, tag.end);
      const number = tag.name === 'citation' ? tag.data?.number : undefined;
      if (!at || typeof number !== 'number') continue;
      const citation = citing(citations, number);
      if (!citation) continue;
      const button = citeButton(citation);
      at.after(button);
      place(attach(message, at, [button]), [button], citingRef(number));
    }
  }
}

/** The end of a span's text as it reads on screen: its last characters without markdown marks. */
const visibleTail = (markdown: string): string =>
  markdown
    .replace(/[*_`~#>]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(-24);

/** Where pieces of the answer's markdown end on screen, found in reading order. */
function screenText(root: Element) {
  let nodes: Array<{ node: Text; start: number }> | null = null;
  let text = '';
  let from = 0;
  /** Splits the text where `markdown`'s visible end next reads on screen: the node split and the
   * node that now starts there; null where it is not found, too short to tell, or inside a link;
   * with `unlessBefore`, also where that text or something of ours follows. */
  return (markdown: string, unlessBefore?: string): { holder: Text; rest: Text } | null => {
    const tail = visibleTail(markdown);
    if (tail.length < 4 || markdown.includes('](')) return null;
    if (!nodes) {
      nodes = textNodes(root);
      text = nodes
        .map(({ node }) => node.data)
        .join('')
        .replace(/\s/g, ' ');
    }
    const at = text.indexOf(tail, from);
    if (at < 0) return null;
    from = at + tail.length;
    const holder = nodes.findLast(({ start }) => start < from);
    if (!holder || holder.node.parentElement?.closest('a')) return null;
    if (unlessBefore !== undefined) {
      // The marker still there as text, or marked already (by linkTextMarkers): nothing to add.
      let next = from;
      while (text.charCodeAt(next) === 0x20) next++;
      if (text.startsWith(unlessBefore.replace(/\s/g, ' '), next)) return null;
      const after = holder.node.data.slice(from - holder.start);
      if (after.trim() === '' && holder.node.nextSibling instanceof Element && holder.node.nextSibling.matches(OURS))
        return null;
    }
    nodes = null; // the split changes the nodes
    return { holder: holder.node, rest: holder.node.splitText(from - holder.start) };
  };
}
const OURS = '.owc-cite, .owc-unnamed';

/** Text a producer attached a citation to by offsets, with no link or marker in it (Gemini's
 * grounding segments through LiteLLM or OpenRouter): its button goes at the end of that text. */
function linkPlainSpans(
  message: Element,
  root: Element,
  content: string,
  contentSpans: readonly MarkerSpan[],
  byIndex: Map<number, Citation>,
): void {
  const endOf = screenText(root);
  for (const span of contentSpans) {
    if (span.kind !== 'link' || message.querySelector(`.owc-cite[data-owc-span="${span.start}"]`)) continue;
    const at = endOf(content.slice(span.start, span.end));
    if (!at) continue;
    const buttons = buttonsFor(span.indices, byIndex);
    buttons.forEach((button) => button.setAttribute('data-owc-span', String(span.start)));
    at.rest.before(...buttons);
    place(
      attach(message, at.holder, [...buttons, at.rest]),
      buttons,
      (view) => view.contentSpans.find((s) => s.kind === 'link' && s.start === span.start)?.indices ?? [],
    );
  }
}

// Each lookup may read the answer's text again: a crafted answer of thousands of such markers
// gets marks for its first ones only.
const MAX_UNNAMED_LOOKUPS = 64;

/** Markers none of whose numbers names a source, where Open WebUI draws nothing for them (once
 * the answer has sources, it draws only the numbers its list has): a muted mark for each number
 * goes after the text the marker followed. Where the marker still reads as text, linkTextMarkers
 * marks it. */
function markUnnamedRuns(message: Element, root: Element, content: string, runs: readonly Run[]): void {
  if (runs.every((run) => run.indices.length > 0)) return;
  const endOf = screenText(root);
  const marked = new Set(
    [...message.querySelectorAll<HTMLElement>('.owc-unnamed[data-owc-at]')].map((m) => m.dataset.owcAt),
  );
  let from = 0;
  let looked = 0;
  for (const run of runs) {
    // The text on its line before the marker, up to the marker before it.
    let lineStart = run.start;
    while (lineStart > from && content.charCodeAt(lineStart - 1) !== 0x0a) lineStart--;
    const before = content.slice(lineStart, run.start);
    from = run.end;
    if (run.indices.length || marked.has(String(run.start))) continue;
    if (++looked > MAX_UNNAMED_LOOKUPS) return;
    const at = endOf(before, content.slice(run.start, run.end)); // still text: linkTextMarkers marks it
    if (!at) continue;
    const marks = run.unnamed.map(unnamedMark);
    marks.forEach((mark) => mark.setAttribute('data-owc-at', String(run.start)));
    at.rest.before(...marks);
    attach(message, at.holder, [...marks, at.rest]);
  }
}

/** Links to a cited URL: a marker link ([[1]](url), [1](url)) becomes the button; any other gets one after it. */
function linkAnchors(message: Element, root: Element, { byUrl, byIndex }: View): void {
  for (const anchor of root.querySelectorAll<HTMLAnchorElement>('a[href]:not(.owc-hidden)')) {
    if (anchor.closest(`.owc-hidden, ${LISTS}`) || anchor.nextElementSibling?.matches('.owc-cite[data-owc-link]'))
      continue;
    const url = safeUrl(anchor.getAttribute('href')) ?? '';
    const citation = byIndex.get(byUrl.get(url) ?? 0);
    if (!citation) continue;
    const button = citeButton(citation);
    button.setAttribute('data-owc-link', '');
    const isMarker = /^\[?\d+\]?$/.test(anchor.textContent?.trim() ?? '') || anchor.querySelector('button') !== null;
    if (isMarker) anchor.classList.add('owc-hidden');
    anchor.after(button);
    place(attach(message, anchor, [button]), [button], (view) => indexOf(view.byIndex.get(view.byUrl.get(url) ?? 0)));
  }
}

/** A marker written as a markdown link to "CITE" ([id](CITE)), which Open WebUI draws as a link
 * named by a source's id: it becomes that source's button, found as the core reads the marker. */
function linkCiteAnchors(
  message: Element,
  root: Element,
  citations: readonly Citation[],
  byIndex: Map<number, Citation>,
): void {
  const sourceOf = (marker: string, view: { citations: readonly Citation[] }): number[] =>
    linkMarkers(marker, view.citations, { anchors: false }).find((s) => s.kind === 'marker')?.indices ?? [];
  for (const anchor of root.querySelectorAll<HTMLAnchorElement>('a[href="CITE"]:not(.owc-hidden)')) {
    if (anchor.closest(`.owc-hidden, ${LISTS}`)) continue;
    const marker = `[${anchor.textContent?.trim() ?? ''}](CITE)`;
    const citation = byIndex.get(sourceOf(marker, { citations })[0] ?? -1);
    if (!citation) continue;
    const button = citeButton(citation);
    anchor.classList.add('owc-hidden');
    anchor.after(button);
    place(attach(message, anchor, [button]), [button], (view) => sourceOf(marker, view));
  }
}

/** Open WebUI's buttons we stand in for, with the numbers we put after them. */
const replaced = new WeakMap<Element, { indices: string; nodes: HTMLElement[] }>();

/** Markers Open WebUI reads as citations, adjacent ones ([1][2]) as one run, as it draws them. */
interface Run {
  start: number;
  end: number;
  written: number[];
  indices: number[];
  unnamed: number[];
}

function openWebuiRuns(content: string, contentSpans: readonly MarkerSpan[]): Run[] {
  const runs: Run[] = [];
  for (const span of contentSpans) {
    const marker = content.slice(span.start, span.end);
    const { drawnByOpenWebui, numbers: written } = writtenMarker(marker);
    if (span.kind !== 'marker' || !drawnByOpenWebui) continue;
    const last = runs.at(-1);
    if (last && last.end === span.start) {
      last.written.push(...written);
      last.indices.push(...span.indices);
      last.unnamed.push(...(span.unnamed ?? []));
      last.end = span.end;
    } else {
      const { start, end, indices, unnamed = [] } = span;
      runs.push({ start, end, written, indices: [...indices], unnamed: [...unnamed] });
    }
  }
  return runs;
}

/** Open WebUI's own inline citation buttons (once sources are on the message) become ours. */
function replaceNativeButtons(
  message: Element,
  root: Element,
  citations: readonly Citation[],
  runs: readonly Run[],
  byIndex: Map<number, Citation>,
): void {
  // Open WebUI draws one button "+1 more" for a run, and nothing for one none of whose numbers it has.
  const groups = runs.filter((group) => group.indices.length > 0);
  // Open WebUI draws one button per group of markers, in reading order, named after the source
  // at the position the group's first number gives in its own list. Once it has drawn them all,
  // the k-th button stands for the k-th group, whatever its name (Open WebUI's own copy of a
  // source can merge or reorder its list). Before that (its sources still arriving), the name
  // finds the group, and a button placed then is placed again once all are drawn.
  const natives = nativeInlineButtons(root).filter((button) => replaced.has(button) || !button.closest('.owc-hidden'));
  const complete = natives.length === groups.length;
  let next = 0;
  natives.forEach((button, k) => {
    const { candidates, more } = nativeButtonTarget(button, citations);
    const sized = (group: { written: number[] } | undefined) => group?.written.length === more + 1;
    const named = (group: { written: number[] }) =>
      sized(group) && candidates.some((c) => c.index === group.written[0]);
    const at = complete ? (sized(groups[k]) ? k : -1) : groups.findIndex((group, i) => i >= next && named(group));
    if (at >= 0) next = at + 1;
    const indices = at >= 0 ? groups[at]!.indices : null;
    const earlier = replaced.get(button);
    if (!indices || earlier?.indices === indices.join() || (earlier && !complete)) return;
    earlier?.nodes.forEach((node) => node.remove());
    const replacement = [...buttonsFor(indices, byIndex), ...groups[at]!.unnamed.map(unnamedMark)];
    button.classList.add('owc-hidden');
    button.after(...replacement);
    replaced.set(button, { indices: indices.join(), nodes: replacement });
    attach(message, button, replacement);
  });
}

/** A block that closes the answer under a heading and lists its sources (grok2api's "## Sources",
 * LightRAG's "### References"), once our list shows the same sources: the last heading of that name
 * with its list under it (lines without bullets make a paragraph), and all that follows it, as the
 * core's span runs to the end of the answer (a hostile title can break the list in pieces); never
 * our own lists. */
function hideSourcesBlock(root: Element, contentSpans: readonly MarkerSpan[]): void {
  const names = new Set(contentSpans.flatMap((s) => (s.kind === 'hide' && s.heading ? [s.heading] : [])));
  if (names.size === 0) return;
  const headings = [...root.querySelectorAll('h1, h2, h3, h4, h5, h6, p')].filter(
    (heading) => names.has(heading.textContent?.trim() ?? '') && heading.nextElementSibling?.matches('ul, ol, p'),
  );
  for (let block = headings.at(-1) ?? null; block; block = block.nextElementSibling) {
    if (!block.matches(LISTS)) block.classList.add('owc-hidden');
  }
}

/** A footnote mark that opens a definition, `<sup class="footnote-ref">n</sup>: …`, not a citation. */
function isDefinitionMark(sup: Element): boolean {
  let after = sup.nextSibling; // past Svelte's comment anchors, empty text and our own button
  const skipped = (node: Node): boolean =>
    node.nodeType === Node.COMMENT_NODE ||
    (node instanceof Text && node.data.trim() === '') ||
    (node instanceof Element && node.matches('.owc-cite'));
  while (after && skipped(after)) after = after.nextSibling;
  return /^\s*:/.test(after?.textContent ?? '');
}

/** A paragraph that is a footnote definition, `[^n]: …`: as text, or as Open WebUI (0.12) draws
 * its marker, `<sup class="footnote-ref">n</sup>: …`. */
function isFootnoteDefinition(block: Element): boolean {
  const first = block.firstElementChild;
  if (!first?.matches('sup.footnote-ref')) return opensFootnoteDefinition(block.textContent ?? '');
  const before = document.createRange();
  before.setStartBefore(block.firstChild!);
  before.setEndBefore(first);
  return before.toString().trim() === '' && isDefinitionMark(first);
}

/** Open WebUI (0.12) draws `[^n]` as `<sup class="footnote-ref">n</sup>`: each becomes our button;
 * the definitions closing the answer are hidden once our list shows their sources. */
function linkFootnotes(
  message: Element,
  root: Element,
  contentSpans: readonly MarkerSpan[],
  citations: readonly Citation[],
): void {
  const listed = contentSpans.some((s) => s.kind === 'hide' && s.indices.length > 0);
  for (const block of root.querySelectorAll('p:not(.owc-hidden)')) {
    if (listed && isFootnoteDefinition(block)) block.classList.add('owc-hidden');
  }
  for (const sup of root.querySelectorAll<HTMLElement>('sup.footnote-ref:not(.owc-hidden)')) {
    if (sup.closest('.owc-hidden') || sup.nextElementSibling?.matches('.owc-cite') || isDefinitionMark(sup)) continue;
    const n = Number(sup.textContent?.trim());
    const citation = citing(citations, n);
    if (!citation) continue;
    const button = citeButton(citation);
    sup.classList.add('owc-hidden');
    sup.after(button);
    place(attach(message, sup, [button]), [button], citingRef(n));
  }
}

export function applyToMessage(
  message: HTMLElement,
  messageId: string,
  citations: readonly Citation[],
  content: string,
  done: boolean,
): void {
  detachOrphans(message);
  const container = answerContainer(message);
  if (!container || citations.length === 0) return;
  const byIndex = new Map(citations.map((c) => [c.index, c]));
  const { byUrl } = citationNumbers(citations);
  const renewed = changed(message, citations);
  // The answer's markdown, read where markers are linked or buttons renumbered.
  const contentSpans = done || renewed ? spansOf(content, citations) : [];
  const view: View = { citations, byIndex, byUrl, contentSpans };
  if (renewed) renumber(message, view);

  // Svelte rewrites the answer's text on every streamed token: markers are linked once it is done.
  if (done) {
    const runs = openWebuiRuns(content, contentSpans);
    for (const prose of proseBlocks(container)) {
      linkTags(message, prose, citations);
      hideSourcesBlock(prose, contentSpans);
      linkFootnotes(message, prose, contentSpans, citations);
      linkAnchors(message, prose, view);
      linkCiteAnchors(message, prose, citations, byIndex);
      replaceNativeButtons(message, prose, citations, runs, byIndex);
      markUnnamedRuns(message, prose, content, runs);
      linkTextMarkers(message, prose, citations, byIndex);
      linkPlainSpans(message, prose, content, contentSpans, byIndex);
    }
  }

  nativeStrip(container)?.classList.toggle('owc-hidden', !settings().keepOpenWebuiStrip);
  // Cited and retrieved are told apart once the text is whole: while it streams, every source shows.
  const { cited, retrieved } = done
    ? splitCited(content, citations, contentSpans)
    : { cited: citations, retrieved: [] };
  const shownRetrieved = settings().showRetrieved ? retrieved : [];
  const key = listKey(messageId, cited, shownRetrieved, settingsKey());
  const selector = (name: string) => `.${name}[data-owc-message-id="${CSS.escape(messageId)}"]`;
  const existing = container.querySelector<HTMLElement>(selector('owc-sources'));
  if (existing && !renewed && existing.dataset.owcKey === key) return;
  const list = sourceList(messageId, cited, key, existing);
  if (!existing) container.append(list);
  const before = container.querySelector<HTMLDetailsElement>(selector('owc-retrieved'));
  if (before && !renewed && before.dataset.owcCount === String(shownRetrieved.length)) return; // as it was ("show all")
  const group = shownRetrieved.length ? retrievedList(messageId, shownRetrieved, before?.open ?? false) : null;
  before?.remove();
  if (group) list.after(group);
}
