/** The citation core: pure functions, no DOM, no network; none of them throws. */

export { createAccumulator, type Accumulator } from './accumulate.js';
export { splitCited, type CitedSplit } from './cited.js';
export { extractCitations } from './extract.js';
export { FORMATS } from './formats/index.js';
export { STORED_KEY } from './formats/open-webui.js';
export { sourcesMarkdown } from './markdown.js';
export { linkMarkers, mayHoldMarker, type MarkerSpan } from './markers.js';
export { distinctNames } from './names.js';
export type { Anchor, Citation, CitationKind, ExtractOptions, ExtractResult, Quote, ScoreKind } from './model.js';
export { answerTags } from './tags.js';
export { sourceLink } from './links.js';
export { hostOf, safeUrl } from './urls.js';
export { untitledSource } from './i18n.js';
