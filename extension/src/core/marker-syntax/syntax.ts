/**
 * One way an answer writes a citation marker, as Open WebUI's marked extensions have one file per
 * syntax: its pattern and what a match of it says. The registry (index.ts) orders them; markers.ts
 * joins their patterns into one regex, read in one pass over the text.
 */

import type { Notation } from '../notations.js';

/** The named groups of a match. */
export type MarkerGroups = Record<string, string | undefined>;

/** When a number a marker writes names no source the backend sent:
 * - `reported`: it is shown as a number that names none (the backend cited a source it did not send);
 * - `in-range`: so too, unless some number of the marker lies outside 1–999: then the marker is no
 *   citation at all ("[2024]" is a year, "[0]" an index);
 * - `footnote`: reported, unless the text defines that footnote (it names something of its own);
 * - `never`: it is no citation (a superscript naming no source is a power: m²). */
export type Unnamed = 'reported' | 'in-range' | 'footnote' | 'never';

/** What a marker says. */
export type MarkerReading =
  /** Numbers of the producer's sources. */
  | { kind: 'numbers'; numbers: number[]; unnamed: Unnamed }
  /** A link named by a number: the source at that address, else the source of that number; a
   * link naming no source is left as the link it is. */
  | { kind: 'link'; n: number; url: string | undefined }
  /** A source named by its id; one naming none is left as it is. */
  | { kind: 'id'; id: string };

export interface MarkerSyntax {
  /** The name a declared backend gives this notation (notations.ts), when it is one a declaration may name. */
  notation?: Notation;
  /** The group whose match says this syntax wrote the marker: unique among the syntaxes, as are
   * all its groups' names. */
  group: string;
  /** The regex source. Joined with the others into one alternation: no quantifiers that can take
   * the same characters one after the other, no flags of its own. */
  pattern: string;
  read(groups: MarkerGroups): MarkerReading;
  /** Strings every marker of this syntax holds: a text with none of any syntax's is not read
   * (markers.ts `mayHoldMarker`, the cheap test before the full pass). */
  leads: readonly string[];
  /** How Open WebUI draws a marker of this syntax when not as markers.ts `writtenMarker` reads a
   * bracket ("[1]" → its own button for source 1): undefined for a marker it does not concern. */
  drawnByOpenWebui?(marker: string): WrittenMarker | undefined;
}

/** A marker as Open WebUI reads it: whether it draws its own button, and the numbers it takes as
 * positions in its own source list. */
export interface WrittenMarker {
  drawnByOpenWebui: boolean;
  numbers: number[];
}
