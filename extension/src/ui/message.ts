/**
 * Applies the citation UI to one rendered answer (`#message-<id>`): numbered buttons for
 * every inline marker, cited links and Open WebUI's own citation buttons, the source list,
 * and the source blocks made redundant by it. Idempotent, and undone piece by piece when
 * Svelte replaces the nodes it was attached to.
 */

import { linkMarkers, safeUrl, type Citation, type MarkerSpan } from '../core/index.js';
import { answerContainer, proseBlocks } from './answer.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { sourceList } from './list.js';
import { nativeButtonTarget, nativeInlineButtons, nativeStrip } from './native.js';

/** Nodes we added next to a node of Open WebUI's, removed when that node goes away. */
interface Attachment {
  origin: Node;
  added: Node[];
  /** For a text node we split: the text we left in it. Svelte rewriting it undoes our split. */
  text?: string;
}
// Keyed by the message's element: when Open WebUI drops the element, its records go with it.
const attachments = new WeakMap<Element, Attachment[]>();

function attach(message: Element, origin: Node, added: Node[]): void {
  const list = attachments.get(message) ?? [];
  list.push({ origin, added, ...(origin instanceof Text ? { text: origin.data } : {}) });
  attachments.set(message, list);
}

function detachOrphans(message: Element): void {
  const list = attachments.get(message);
  if (!list) return;
  attachments.set(message, list.filter((a) => {
    if (a.origin.isConnected && (a.text === undefined || (a.origin as Text).data === a.text)) return true;
    a.added.forEach((node) => (node as ChildNode).remove());
    return false;
  }));
}

function citeButton(citation: Citation): HTMLButtonElement {
  return el('button', { type: 'button', class: 'owc-cite', 'data-owc-index': citation.index, 'aria-label': t('source', { n: citation.index, title: citation.title }) }, String(citation.index));
}

const buttonsFor = (indices: number[], byIndex: Map<number, Citation>): HTMLButtonElement[] =>
  indices.map((i) => byIndex.get(i)).filter((c): c is Citation => !!c).map(citeButton);

const SKIPPED = 'pre, code, .owc-hidden, .owc-sources, button, a, [contenteditable]';

/** Text markers ([1], [doc1], 【1】…) and OpenRAG tags in the text nodes of the answer. */
function linkTextMarkers(message: Element, root: Element, citations: readonly Citation[], byIndex: Map<number, Citation>): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node as Text;
    if ((text.data.includes('[') || text.data.includes('【')) && !text.parentElement?.closest(SKIPPED)) nodes.push(text);
  }
  for (const node of nodes) {
    const spans = linkMarkers(node.data, citations).filter((s) => s.kind !== 'link');
    if (spans.length === 0) continue;
    const added: Node[] = [];
    let cursor = node;
    let consumed = 0;
    for (const span of spans) {
      const marker = cursor.splitText(span.start - consumed);
      const rest = marker.splitText(span.end - span.start);
      const replacement = span.kind === 'hide' ? [el('span', { class: 'owc-hidden' }, marker.data)] : buttonsFor(span.indices, byIndex);
      marker.replaceWith(...replacement);
      added.push(...replacement, rest);
      cursor = rest;
      consumed = span.end;
    }
    attach(message, node, added);
  }
}

/** Links to a cited URL: a marker link ([[1]](url), [1](url)) becomes the button; any other gets one after it. */
function linkAnchors(message: Element, root: Element, byUrl: Map<string, Citation>): void {
  for (const anchor of root.querySelectorAll<HTMLAnchorElement>('a[href]:not(.owc-hidden)')) {
    if (anchor.closest('.owc-hidden, .owc-sources') || anchor.nextElementSibling?.matches('.owc-cite[data-owc-link]')) continue;
    const citation = byUrl.get(safeUrl(anchor.getAttribute('href')) ?? '');
    if (!citation) continue;
    const button = citeButton(citation);
    button.setAttribute('data-owc-link', '');
    const isMarker = /^\[?\d+\]?$/.test(anchor.textContent?.trim() ?? '') || anchor.querySelector('button') !== null;
    if (isMarker) anchor.classList.add('owc-hidden');
    anchor.after(button);
    attach(message, anchor, [button]);
  }
}

/** Open WebUI's own inline citation buttons (once sources are on the message) become ours. */
function replaceNativeButtons(message: Element, root: Element, citations: readonly Citation[], contentSpans: readonly MarkerSpan[], byIndex: Map<number, Citation>): void {
  // Open WebUI draws adjacent markers ([1][2]) as one button "+1 more": group them likewise.
  const groups: Array<{ end: number; indices: number[] }> = [];
  for (const span of contentSpans) {
    if (span.kind !== 'marker') continue;
    const last = groups.at(-1);
    if (last && last.end === span.start) {
      last.indices.push(...span.indices);
      last.end = span.end;
    } else groups.push({ end: span.end, indices: [...span.indices] });
  }
  for (const button of nativeInlineButtons(root)) {
    if (button.closest('.owc-hidden')) continue;
    const target = nativeButtonTarget(button, citations);
    if (!target) continue;
    const group = target.more ? groups.find((g) => g.indices[0] === target.citation.index && g.indices.length === target.more + 1) : null;
    if (target.more && !group) continue; // the answer's text is not known yet: next pass
    const replacement = buttonsFor(group?.indices ?? [target.citation.index], byIndex);
    button.classList.add('owc-hidden');
    button.after(...replacement);
    attach(message, button, replacement);
  }
}

/** grok2api's "## Sources" block: its heading and list, once our list shows the same sources. */
function hideSourcesBlock(root: Element, contentSpans: readonly MarkerSpan[]): void {
  if (!contentSpans.some((s) => s.kind === 'hide')) return;
  for (const heading of root.querySelectorAll('h2:not(.owc-hidden)')) {
    const list = heading.nextElementSibling;
    if (heading.textContent?.trim() === 'Sources' && list?.matches('ul, ol')) {
      heading.classList.add('owc-hidden');
      list.classList.add('owc-hidden');
    }
  }
}

export function applyToMessage(message: HTMLElement, messageId: string, citations: readonly Citation[], content: string, done: boolean): void {
  detachOrphans(message);
  const container = answerContainer(message);
  if (!container || citations.length === 0) return;
  const byIndex = new Map(citations.map((c) => [c.index, c]));
  const byUrl = new Map(citations.filter((c) => c.url).map((c) => [c.url!, c]));

  // Svelte rewrites the answer's text on every streamed token: markers are linked once it is done.
  if (done) {
    const contentSpans = linkMarkers(content, citations); // the answer's markdown, read once per pass
    for (const prose of proseBlocks(container)) {
      hideSourcesBlock(prose, contentSpans);
      linkAnchors(message, prose, byUrl);
      replaceNativeButtons(message, prose, citations, contentSpans, byIndex);
      linkTextMarkers(message, prose, citations, byIndex);
    }
  }

  nativeStrip(container)?.classList.add('owc-hidden');
  const existing = container.querySelector<HTMLElement>(`.owc-sources[data-owc-message-id="${CSS.escape(messageId)}"]`);
  if (existing && existing.dataset.owcCount === String(citations.length)) return;
  const list = sourceList(messageId, citations, () => {
    container.querySelector('.owc-sources')?.remove();
    applyToMessage(message, messageId, citations, content, done);
  });
  if (existing) existing.replaceWith(list);
  else container.append(list);
}
