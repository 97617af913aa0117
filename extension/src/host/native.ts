/**
 * Where Open WebUI draws its own citations, read by what every release line from 0.6 to 0.12
 * shares rather than by version: inline buttons (`button > span.line-clamp-1` holding the
 * source's shortened name, and a `<span>+N</span>` when the button groups N more sources;
 * an `aria-label` from 0.8 on, none before, so the text is what is read), and the "N Sources"
 * strip (a div of the response container holding only its toggle button; `aria-expanded`
 * from 0.8 on, absent before); and its chat menu's "Download → Plain text (.txt)" item. Kept in
 * one place, because each release line may draw them differently.
 */

import { type Citation, distinctNames } from '../core/index.js';

/** Open WebUI's inline buttons in reading order, those we hid (replaced) included. */
export function nativeInlineButtons(root: Element): HTMLButtonElement[] {
  const ours = (button: Element): boolean =>
    [...button.classList].some((name) => name.startsWith('owc-') && name !== 'owc-hidden');
  // The selector engine finds the shape: a crafted answer has thousands of buttons of ours.
  return [...root.querySelectorAll('button > span.line-clamp-1:only-child')]
    .map((label) => label.parentElement as HTMLButtonElement)
    .filter((button) => !ours(button));
}

export function nativeStrip(container: Element): HTMLElement | null {
  for (const child of container.children) {
    const toggle = child.firstElementChild;
    if (
      child instanceof HTMLElement &&
      child.childElementCount === 1 &&
      toggle?.matches('button:not([class*="owc-"])') &&
      /\d/.test(toggle.textContent ?? '')
    )
      return child;
  }
  return null;
}

/** How Open WebUI shows a source's name on a button (`SourceToken.svelte`, unchanged 0.6–0.12):
 * a URL as its domain, and a name over 30 characters as its first 15 … last 10; trimmed, as
 * `shownOn` reads it (a name starting with a space or a tab is cut before it is trimmed). */
export function displayedName(name: string): string {
  let shown = name;
  try {
    shown = decodeURIComponent(name); // its decodeString: "%3Cb%3E" shows as "<b>"
  } catch {
    // not percent-encoded text: shown as it is
  }
  if (shown.startsWith('http')) {
    shown = shown.replace('http://', '').replace('https://', '').split(/[/?#]/)[0]!;
    if (shown.startsWith('www.')) shown = shown.slice(4);
  }
  return (shown.length > 30 ? `${shown.slice(0, 15)}...${shown.slice(-10)}` : shown).trim();
}

/** What a native inline button shows: a source's name, and how many more sources it groups. */
function shownOn(button: HTMLButtonElement): { name: string; more: number } {
  const label = button.firstElementChild!;
  const count = label.querySelector('span');
  const more = Number(/^\+(\d+)$/.exec(count?.textContent?.trim() ?? '')?.[1] ?? 0);
  const name = [...label.childNodes]
    .filter((node) => node !== count)
    .map((node) => node.textContent ?? '')
    .join('')
    .trim();
  return { name, more };
}

// Built once per list of citations (an answer's list is the same object from pass to pass):
// looking each button up in the list would cost O(buttons × citations).
const namesOf = new WeakMap<readonly Citation[], Map<string, Citation[]>>();

function byShownName(citations: readonly Citation[]): Map<string, Citation[]> {
  let names = namesOf.get(citations);
  if (!names) {
    names = new Map();
    const stored = distinctNames(citations); // the names Open WebUI got, when we stored them
    for (const [i, citation] of citations.entries()) {
      const shown = new Set(
        [stored[i], citation.title, citation.url].filter((name): name is string => !!name).map(displayedName),
      );
      for (const name of shown) names.set(name, [...(names.get(name) ?? []), citation]);
    }
    namesOf.set(citations, names);
  }
  return names;
}

/** The citations a native inline button may stand for, by the name it shows (two sources can
 * show the same name, and a name of Open WebUI's own, none); and how many more it groups. */
export function nativeButtonTarget(
  button: HTMLButtonElement,
  citations: readonly Citation[],
): { candidates: Citation[]; more: number } {
  const { name, more } = shownOn(button);
  return { candidates: byShownName(citations).get(name) ?? [], more };
}

/** Whether a click on `target` is on the chat menu's "Download → Plain text (.txt)" item, in the
 * navbar's menu or the sidebar's (Navbar/Menu.svelte, Sidebar/ChatMenu.svelte). The item is a
 * bits-ui `DropdownMenu.Item` (`role="menuitem"`) on the older lines, a `<button>` on the newer,
 * with neither id nor data attribute: it is known by its label, `$i18n.t('Plain text (.txt)')`,
 * which each of Open WebUI's translations ends with "(.txt)". */
export function isPlainTextDownload(target: EventTarget | null): boolean {
  const item = (target as Element | null)?.closest?.('[role="menuitem"], button');
  return !!item?.textContent?.trim().endsWith('(.txt)');
}
