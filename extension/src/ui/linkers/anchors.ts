import { isMarkerText, isWebUrl, safeUrl } from '../../core/index.js';
import { attach, place, type View } from '../attachments.js';
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

/** Links to a cited URL: a marker link ([[1]](url), [1](url)) becomes the button; any other gets one
 * after it. A marker link to a page no source has is the button of the source its number names, as
 * the core reads the marker. */
export function* linkAnchors({ message, view }: Pass, root: Element): Generator<void> {
  let made = 0;
  for (const anchor of root.querySelectorAll<HTMLAnchorElement>('a[href]:not(.owc-hidden)')) {
    if (anchor.closest(`.owc-hidden, ${LISTS}`) || anchor.nextElementSibling?.matches('.owc-cite[data-owc-link]'))
      continue;
    const href = anchor.getAttribute('href') ?? '';
    const url = safeUrl(href) ?? '';
    const text = anchor.textContent?.trim() ?? '';
    const isMarker = isMarkerText(text) || anchor.querySelector('button') !== null;
    // The marker as written, "[1](url)" or "[[1]](url)", for the core to read when no source has the URL.
    const numbered = isMarkerText(text) && isWebUrl(anchor.getAttribute('href')) ? `[${text}](${href})` : null;
    const cited = (now: View): number | undefined =>
      now.byUrl.get(url) ?? (numbered === null ? undefined : markerIn(numbered, now.citations)?.indices[0]);
    const citation = view.byIndex.get(cited(view) ?? 0);
    if (!citation) continue;
    const button = citeButton(citation);
    button.setAttribute('data-owc-link', '');
    if (isMarker) {
      anchor.classList.add('owc-hidden');
      hideBrackets(message, anchor);
    }
    anchor.after(button);
    place(attach(message, anchor, [button]), [button], (now) => asIndices(now.byIndex.get(cited(now) ?? 0)));
    if (++made % PER_STEP === 0) yield;
  }
}

/** The marker a link to no web page is, as the core reads it: FastGPT's [id](CITE), Writer's
 * [name](file id), which Open WebUI draws as a relative link. Its href is the target as marked
 * wrote it, percent-encoded: read as written too. */
function idLinkMarker(
  anchor: HTMLAnchorElement,
  citations: View['citations'],
): { marker: string; index: number } | null {
  const href = anchor.getAttribute('href') ?? '';
  // A link to a web page is linkAnchors' (by its address).
  if (href === '' || isWebUrl(anchor.getAttribute('href'))) return null;
  const name = anchor.textContent?.trim() ?? '';
  let written = href;
  try {
    written = decodeURI(href);
  } catch {
    // Not percent-encoded as marked writes it: read as it is.
  }
  for (const target of new Set([href, written])) {
    const marker = `[${name}](${target})`;
    // The whole link, not a marker inside its text ("see [2]").
    const span = markerIn(marker, citations);
    const index = span?.start === 0 && span.end === marker.length ? span.indices[0] : undefined;
    if (index !== undefined) return { marker, index };
  }
  return null;
}

/** A marker written as a markdown link to no web page, named by a source's id ([id](CITE)) or
 * to a source's id ([name](id)): it becomes that source's button, found as the core reads the marker. */
export function* linkIdAnchors({ message, view: { citations, byIndex } }: Pass, root: Element): Generator<void> {
  let made = 0;
  for (const anchor of root.querySelectorAll<HTMLAnchorElement>('a[href]:not(.owc-hidden)')) {
    if (anchor.closest(`.owc-hidden, ${LISTS}`)) continue;
    const found = idLinkMarker(anchor, citations);
    const citation = found && byIndex.get(found.index);
    if (!found || !citation) continue;
    const { marker } = found;
    const button = citeButton(citation);
    anchor.classList.add('owc-hidden');
    anchor.after(button);
    place(attach(message, anchor, [button]), [button], (view) => markerIn(marker, view.citations)?.indices ?? []);
    if (++made % PER_STEP === 0) yield;
  }
}
