/** The answer's text as it reads on screen: its text nodes in order, a range of it hidden, and
 * where a piece of its markdown ends. Shared by the linkers. */

import { attach } from '../attachments.js';
import { el } from '../dom.js';

/** Our own lists under the answer: never read as the answer's text. */
export const LISTS = '.owc-sources, .owc-retrieved';

/** What a linker reads no marker in: code, what is hidden, our lists and buttons, any button. */
const NOT_READ = `pre, code, .owc-hidden, ${LISTS}, button, .owc-unnamed`;

/** The text nodes of an answer block in reading order, with where each starts in their joined text;
 * those inside `skipped` left out. */
export function textNodes(root: Element, skipped = NOT_READ): Array<{ node: Text; start: number }> {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, (node) =>
    node instanceof Element
      ? node.matches(skipped)
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
export function hideRange(
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

/** The end of a span's text as it reads on screen: its last characters without markdown marks. */
const visibleTail = (markdown: string): string =>
  markdown
    .replace(/[*_`~#>]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(-24);

/** Where pieces of the answer's markdown end on screen, found in reading order. */
export function screenText(root: Element) {
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
export const OURS = '.owc-cite, .owc-unnamed';
