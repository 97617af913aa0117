/**
 * What the citation UI added to an answer, recorded against the node of Open WebUI's it was added
 * next to: removed when Svelte replaces that node, and renumbered when the answer's citations change.
 */

import type { Citation, MarkerSpan } from '../core/index.js';
import { citeButton, citedBy, showCitation } from './buttons.js';

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

export function attach(message: Element, origin: Node, added: Node[]): Attachment {
  const list = attachments.get(message) ?? [];
  const attachment = { origin, added, ...(origin instanceof Text ? { text: origin.data } : {}) };
  list.push(attachment);
  attachments.set(message, list);
  return attachment;
}

export function detachOrphans(message: Element): void {
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

/** What a pass links against; a placed button finds its sources in it again. */
export interface View {
  citations: readonly Citation[];
  byIndex: Map<number, Citation>;
  /** Which citation a URL names: the core's rule, as the list's cited and retrieved are told apart. */
  byUrl: ReadonlyMap<string, number>;
  /** Which citation a producer's reference number names (a footnote, a tag): the core's rule too. */
  byRef: ReadonlyMap<number, number>;
  contentSpans: readonly MarkerSpan[];
}

/** Buttons placed for one marker, and how they find their sources again: an answer's citations
 * can change once its buttons are placed (a stored copy read before our sources were stored). */
export interface Placed {
  buttons: HTMLButtonElement[];
  find: (view: View) => number[];
  /** Marks for the numbers that named no source, and which of them still name none. */
  unnamed?: { marks: HTMLElement[]; find: (view: View) => readonly number[] };
}

export function place(
  attachment: Attachment,
  buttons: HTMLButtonElement[],
  find: Placed['find'],
  unnamed?: Placed['unnamed'],
): void {
  if (!buttons.length && !unnamed?.marks.length) return;
  attachment.placed ??= [];
  attachment.placed.push({ buttons, find, ...(unnamed?.marks.length ? { unnamed } : {}) });
}

/** Puts each placed button's sources right after the message's citations changed: buttons are
 * renumbered in place; one a marker no longer needs goes, one more goes after the others. */
export function renumber(message: Element, view: View): void {
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
