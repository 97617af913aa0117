/** The citation core: pure functions, no DOM, no network; none of them throws. */

export { PLACED_BY_POSITION } from '../../../producers/claude-citations/format.js';
export { type Accumulator, createAccumulator } from './accumulate.js';
export { shownBranch } from './branch.js';
export { type Candidate, findCandidates } from './candidates.js';
export { type CitedSplit, splitCited, splitCitedSteps } from './cited.js';
export {
  DECLARATION_RULES,
  DECLARATIONS_KEY,
  type DeclarationJson,
  type Declared,
  declarationJson,
  declarationsByModel,
  declarationsText,
  parseDeclarations,
  validateDeclarations,
  withDeclaration,
} from './declared.js';
export { DECLARED_FORMAT } from './declared-read.js';
export { bibtex } from './export/bibtex.js';
export { cslJson } from './export/csl.js';
export { withSourcesAfterAnswers } from './export/download-text.js';
export { fileStem } from './export/file-stem.js';
export { chatMarkdown, type MarkdownWords } from './export/markdown.js';
export { ris } from './export/ris.js';
export { bibliography, type Entry, type ExportedAnswer } from './export/sources.js';
export { extractCitationSteps, extractCitations } from './extract.js';
export { opensFootnoteDefinition } from './footnotes.js';
export { FORMATS } from './formats/index.js';
export { isOwnSource, STORED_KEY } from './formats/open-webui.js';
export { isUntitledSource, untitledSource } from './i18n.js';
export { sourceLink } from './links.js';
export { sourcesMarkdown } from './markdown.js';
export {
  citationNumbers,
  isMarkerText,
  linkMarkerSteps,
  linkMarkers,
  type MarkerSpan,
  mayHoldMarker,
  writtenMarker,
} from './markers.js';
export type { Anchor, Citation, CitationKind, ExtractOptions, ExtractResult, Quote, ScoreKind } from './model.js';
export { distinctNames } from './names.js';
export { chooseCitations, type Readings, streamedWins } from './precedence.js';
export { type Budget, done, finish, type Steps, stepBudget, WHOLE } from './steps.js';
export { answerTags } from './tags.js';
export { hostOf, isWebUrl, safeUrl } from './urls.js';
