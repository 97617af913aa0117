/**
 * Where Open WebUI draws its own citations, measured on 0.12.4: inline buttons
 * (`button > span.line-clamp-1`, labelled "View source: <name>" or "<name> +N more sources")
 * and the "N Sources" strip (a `button[aria-expanded]` directly in a div of the response
 * container). Kept in one place, because each release line may draw them differently.
 */

import { hostOf, type Citation } from '../core/index.js';

export function nativeInlineButtons(root: Element): HTMLButtonElement[] {
  return [...root.querySelectorAll<HTMLButtonElement>('button')].filter(
    (button) => !button.className.includes('owc-') && button.firstElementChild?.matches('span.line-clamp-1') === true && button.childElementCount === 1,
  );
}

export function nativeStrip(container: Element): HTMLElement | null {
  for (const child of container.children) {
    const toggle = child.firstElementChild;
    if (child instanceof HTMLElement && toggle?.matches('button[aria-expanded][aria-label]') && /\d/.test(toggle.textContent ?? '')) return child;
  }
  return null;
}

/** How Open WebUI names a source on its buttons: a URL shows as its domain. */
const displayed = (name: string): string => (name.startsWith('http') ? (hostOf(name) ?? name) : name);

/** The citation a native inline button stands for, by the name on its label; and how many more it groups. */
export function nativeButtonTarget(button: HTMLButtonElement, citations: readonly Citation[]): { citation: Citation; more: number } | null {
  const label = button.getAttribute('aria-label') ?? '';
  const grouped = / \+(\d+) more sources$/.exec(label);
  const more = Number(grouped?.[1] ?? 0);
  const shown = grouped ? label.slice(0, grouped.index) : label; // "<title, cut to 15 + … + 10> +N more sources"
  let best: { citation: Citation; length: number } | null = null;
  for (const citation of citations) {
    for (const name of [citation.title, citation.url].filter((n): n is string => !!n).map(displayed)) {
      const matches = more ? shown.startsWith(name.slice(0, 15)) : label.endsWith(name) || label.includes(`: ${name}`);
      if (matches && (!best || name.length > best.length)) best = { citation, length: name.length };
    }
  }
  return best ? { citation: best.citation, more } : null;
}
