/**
 * One way an answer lists its sources in its own text (a tag at the end of a line, a block
 * closing the answer), hidden once the extension shows those sources: one file per syntax, as
 * the marker syntaxes (../marker-syntax/). The registry (index.ts) orders them; markers.ts runs
 * them in that order over the spans of the markers.
 */

import type { Budget, Steps } from '../steps.js';

/** What a finder may ask of the answer and of the sources shown. */
export interface ShownSources {
  text: string;
  /** The budget of the pass's steps (../steps.ts): a finder that reads the text spends on it. */
  budget: Budget;
  /** Whether a position lies in code (where nothing is hidden). */
  inCode(at: number): boolean;
  /** The citations (their `index`) that the producer's numbers, or else an address, name. */
  resolve(refs: number[], url?: string): number[];
  /** The citation named by a source's own id. */
  byId: ReadonlyMap<string, number>;
}

/** A span of the text to hide. */
export interface HiddenBlock {
  start: number;
  end: number;
  /** The citations it lists; `cited-inside`: those its own markers cite (hidden with it). */
  indices: readonly number[] | 'cited-inside';
  /** For a block that closes the answer under a heading: the heading as it reads on screen. */
  heading?: string;
}

export interface SourceBlockSyntax {
  /** This syntax's blocks in the text, sorted and apart, to hide: those listing sources shown. In
   * steps: a finder reads the whole text. */
  find(shown: ShownSources): Steps<HiddenBlock[]>;
  /** Once one is hidden, it is the answer's list of sources: no other list in the text
   * (source-lists.ts) is looked for. */
  isTheList?: true;
}
