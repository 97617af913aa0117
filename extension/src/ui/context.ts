/** What the UI's features need of the answers on the page; ui/index.ts makes it from the hub. */

import type { Citation, ExportedAnswer } from '../core/index.js';

export interface UiContext {
  /** The citation a button (`.owc-cite`, `.owc-source`) names, with the rest of its answer's. */
  citationAt(trigger: Element): { citations: readonly Citation[]; citation: Citation } | null;
  /** An answer's sources: those its text cites, and those it only retrieved. */
  split(messageId: string): { cited: readonly Citation[]; retrieved: readonly Citation[] };
  /** The answers the page knows (drawn or not), oldest first. */
  answerIds(): readonly string[];
  /** An answer's text and sources as the page shows them, for an export; null when unknown. */
  answer(messageId: string): ExportedAnswer | null;
  /** Draws an answer again (its list or a setting changed). */
  apply(message: HTMLElement): void;
  /** Draws every answer on the page again. */
  applyAll(): void;
}

/** A feature: its listeners, all ended by `signal` (the UI turned off). */
export type Feature = (ui: UiContext, signal: AbortSignal) => void;
