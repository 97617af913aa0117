import { isMarkerText, safeUrl } from '../../core/index.js';
import { attach, place } from '../attachments.js';
import { asIndices, citeButton } from '../buttons.js';
import { el } from '../dom.js';
import { LISTS } from './dom-text.js';
import { markerIn, type Pass, PER_STEP } from './pass.js';

/** The text node beside a node, past Svelte's comment anchors. */
function textBeside(node: Node, next: boolean): Text | null {
  let beside = next ? node.nextSibling : node.previousSibling;
  while (beside?.nodeType === Node.COMMENT_NODE) beside = next ? beside.nextSibling : beside.previousSibling;
  return beside instanceof Text ? beside : null;
}

/** The brackets around a marker link, `[[1](url)]` (PandaWiki), drawn as "[" and "]" around it:
 * hidden with it, so that its button does not stand in brackets. */
function hideBrackets(message: Element, anchor: Element): void {
  const before = textBeside(anchor, false);
  const after = textBeside(anchor, true);
  if (!before?.data.endsWith('[') || !after?.data.startsWith(']')) return;
  const open = before.splitText(before.data.length - 1);
  after.splitText(1);
  for (const bracket of [open, after]) {
    const hidden = el('span', { class: 'owc-hidden' });
    bracket.replaceWith(hidden);
    hidden.append(bracket);
    // The text a split leaves is what Open WebUI may rewrite: the "[" split off its text, the "]" whole.
    attach(message, bracket === open ? before : hidden, [hidden]);
  }
}

/** Links to a cited URL: a marker link ([[1]](url), [1](url)) becomes the button; any other gets one after it. */
export function* linkAnchors({ message, view: { byUrl, byIndex } }: Pass, root: Element): Generator<void> {
  let made = 0;
  for (const anchor of root.querySelectorAll<HTMLAnchorElement>('a[href]:not(.owc-hidden)')) {
    if (anchor.closest(`.owc-hidden, ${LISTS}`) || anchor.nextElementSibling?.matches('.owc-cite[data-owc-link]'))
      continue;
    const url = safeUrl(anchor.getAttribute('href')) ?? '';
    const citation = byIndex.get(byUrl.get(url) ?? 0);
    if (!citation) continue;
    const button = citeButton(citation);
    button.setAttribute('data-owc-link', '');
    const isMarker = isMarkerText(anchor.textContent ?? '') || anchor.querySelector('button') !== null;
    if (isMarker) {
      anchor.classList.add('owc-hidden');
      hideBrackets(message, anchor);
    }
    anchor.after(button);
    place(attach(message, anchor, [button]), [button], (view) => asIndices(view.byIndex.get(view.byUrl.get(url) ?? 0)));
    if (++made % PER_STEP === 0) yield;
  }
}

/** A marker written as a markdown link to "CITE" ([id](CITE)), which Open WebUI draws as a link
 * named by a source's id: it becomes that source's button, found as the core reads the marker. */
export function* linkCiteAnchors({ message, view: { citations, byIndex } }: Pass, root: Element): Generator<void> {
  let made = 0;
  for (const anchor of root.querySelectorAll<HTMLAnchorElement>('a[href="CITE"]:not(.owc-hidden)')) {
    if (anchor.closest(`.owc-hidden, ${LISTS}`)) continue;
    const marker = `[${anchor.textContent?.trim() ?? ''}](CITE)`;
    const citation = byIndex.get(markerIn(marker, citations)?.indices[0] ?? -1);
    if (!citation) continue;
    const button = citeButton(citation);
    anchor.classList.add('owc-hidden');
    anchor.after(button);
    place(attach(message, anchor, [button]), [button], (view) => markerIn(marker, view.citations)?.indices ?? []);
    if (++made % PER_STEP === 0) yield;
  }
}
