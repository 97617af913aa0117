import { LISTS } from './dom-text.js';
import type { Pass } from './pass.js';

/** A block that closes the answer under a heading and lists its sources (grok2api's "## Sources",
 * LightRAG's "### References"), once our list shows the same sources: the last heading of that name
 * with its list under it (lines without bullets make a paragraph), and all that follows it, as the
 * core's span runs to the end of the answer (a hostile title can break the list in pieces); never
 * our own lists. */
export function* hideSourcesBlock({ view: { contentSpans } }: Pass, root: Element): Generator<void> {
  // A list written anywhere in the text (`block`) is hidden by its own blocks (text-lists.ts), not to the end.
  const names = new Set(contentSpans.flatMap((s) => (s.kind === 'hide' && s.heading && !s.block ? [s.heading] : [])));
  if (names.size === 0) return;
  const headings = [...root.querySelectorAll('h1, h2, h3, h4, h5, h6, p')].filter(
    (heading) => names.has(heading.textContent?.trim() ?? '') && nextBlock(heading)?.matches('ul, ol, p'),
  );
  for (let block = headings.at(-1) ?? null; block; block = block.nextElementSibling) {
    if (!block.matches(LISTS)) block.classList.add('owc-hidden');
  }
}

/** The block after an element, past the empty spacers Open WebUI draws between blocks (0.6: `div.my-2`). */
function nextBlock(element: Element): Element | null {
  let next = element.nextElementSibling;
  while (next?.matches('div:empty')) next = next.nextElementSibling;
  return next;
}
