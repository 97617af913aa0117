/** Builds elements from untrusted data safely: text through textContent, data through attributes. */

type Child = Node | string | null | false | undefined;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean | null | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

/** The direction `node` is laid out in. Open WebUI sets it per answer, not per language: its "Chat
 * direction" setting (LTR, RTL, or Auto, the default: the answer's own text decides) is each
 * message's `dir` (ResponseMessage.svelte). What we draw inside the answer inherits it; what we
 * draw outside it (modal, preview) is given it from here. */
export const directionOf = (node: Element | null): 'rtl' | 'ltr' =>
  node && getComputedStyle(node).direction === 'rtl' ? 'rtl' : 'ltr';
