/** The one citation model every wire format is turned into. */

import type { Declared } from './declared.js';
import type { Notation } from './notations.js';
import type { ListPlace } from './source-lists.js';
import type { Budget, Steps } from './steps.js';

/** How a score should be read, so that the UI never shows a fake percentage. */
export type ScoreKind =
  | 'similarity' // 0..1, higher is better: may be shown as a percentage
  | 'reranker' // a cross-encoder's raw score (any real number, higher is better)
  | 'bm25' // a lexical search score, unbounded
  | 'raw'; // a number of unknown scale

/** `graph`: an entity or a relation of a knowledge graph (LightRAG's `[KG]` references). */
export type CitationKind = 'document' | 'web' | 'post' | 'file' | 'graph';

/** Where in the answer a producer says a citation applies, in the producer's own unit. */
export interface Anchor {
  start: number;
  end: number;
  unit: OffsetUnit;
}

export type OffsetUnit = 'utf16' | 'codePoints' | 'utf8';

export interface Quote {
  text: string;
  /** UTF-16 offsets of the quote in `snippet`, when it was found there. */
  start: number | null;
  end: number | null;
  /** true: found verbatim in the source text; false: not found; null: no source text to check,
   * or a quote longer than the snippet cap, cut (limits.ts). */
  verbatim: boolean | null;
}

export interface Citation {
  /** The 1-based number the user sees. */
  index: number;
  /** Stable identity of the source (chunk URL, URL, file id, section id, …). */
  id: string;
  title: string;
  /** http(s) or same-origin relative, or null. */
  url: string | null;
  snippet: string | null;
  score: number | null;
  scoreKind: ScoreKind | null;
  page: number | null;
  pageEnd: number | null;
  /** Every page this source was cited at, ascending (merged from several chunks). */
  pages: number[];
  quote: Quote | null;
  kind: CitationKind;
  /** The producer's format name, as registered in formats/index.ts. */
  format: string;
  /** The producer's own numbers for this source (what `[N]`, `[docN]`, `[[N]]` refer to). */
  refs: number[];
  /** Offset spans the producer attached to this source (url_citation start/end, …). */
  anchors: Anchor[];
  /** Publication date as the producer wrote it, when it gave one. */
  date: string | null;
  /** For a source a declaration read from a list in the answer's text: where it says the list is.
   * The list is then hidden as one the text says is sources (markers.ts). */
  listedUnder?: ListPlace;
}

export interface ExtractResult {
  format: string | null;
  citations: Citation[];
  /** The format whose sources the payload holds but none of which could be read (bad JSON,
   * a number for a list, only nulls), when no format found any: reported, never guessed. */
  unreadable?: string;
  /** How many more sources the payload held than the MAX_CITATIONS read (limits.ts). */
  omitted?: number;
  /** Where the reader of last resort (formats/generic.ts) found them, a path: `choices[0].message.references`. */
  field?: string;
  /** The marker notation a declaration says the answer's text uses (notations.ts): linkMarkers reads
   * every notation in any answer. */
  notation?: Notation;
}

/** What a format parser returns: a citation before numbering, merging and clean-up. */
export interface Draft {
  id: string;
  title?: string | null;
  url?: string | null;
  snippet?: string | null;
  score?: number | null;
  scoreKind?: ScoreKind | null;
  page?: number | null;
  pageEnd?: number | null;
  quote?: { text: string; start: number | null; end: number | null } | null;
  kind: CitationKind;
  refs?: number[];
  anchors?: Anchor[];
  date?: string | null;
  /** A file name or path, the title's first fallback. */
  file?: string | null;
  listedUnder?: ListPlace;
}

/** What a format reads of a payload: see Format.extract. */
export type FormatRead = { drafts: Draft[]; ordered: boolean; field?: string; omitted?: number } | null;

export interface Format {
  name: string;
  /**
   * The drafts in the producer's order, or null when the payload is not of this format.
   * `ordered: false` means the producer gives no order: drafts are then ranked by score.
   * No drafts: the payload has this format's sources, but none can be read.
   */
  extract(payload: Record<string, unknown>): FormatRead;
  /** `extract` in steps (steps.ts), for a reader that reads the whole answer's text: `extract` is
   * these steps run to their end. */
  steps?(payload: Record<string, unknown>, budget: Budget): Steps<FormatRead>;
  /** What of this format's stream the merger (stream.ts) cannot keep as a field like any other:
   * made once per stream. */
  stream?: () => StreamPart;
}

/** The answer's text as a stream has it so far. */
export interface StreamText {
  text(): string;
  add(piece: string): void;
}

/** A format's share of rebuilding a stream into one body (stream.ts), each hook optional. */
export interface StreamPart {
  /** A chunk wholly this format's, taken here: the merger reads nothing more of it. */
  takes?(chunk: Record<string, unknown>, stream: StreamText): boolean;
  /** A part of a content list that is not text, at the text's length so far: true when kept here. */
  keepsContent?(part: Record<string, unknown>, at: number): boolean;
  /** A chunk, after the merger read it (its text added). */
  read?(chunk: Record<string, unknown>, stream: StreamText): void;
  /** What it kept, into the rebuilt body (`message`: its first choice's); a body of its own
   * replaces the rebuilt one. */
  into?(
    body: Record<string, unknown>,
    message: Record<string, unknown>,
    text: string,
  ): Record<string, unknown> | undefined;
}

export interface ExtractOptions {
  /** BCP 47 language tag for the "Untitled source" fallback; default "en". */
  locale?: string;
  /** The declaration for the answer's model (declared.ts), read before every format. */
  declared?: Declared;
  /** The declarations without models (declared.ts), read in order after the model's own, before
   * every format: each claims a payload only when its list's items carry their number. */
  anyModel?: readonly Declared[];
}
