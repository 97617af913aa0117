/** A citation for tests: source n, cited as [n], every other field empty unless given. */

import type { Citation } from '../src/core/model.js';

export function citation(index: number, extra: Partial<Citation> = {}): Citation {
  return {
    index,
    id: `s${index}`,
    title: `Source ${index}`,
    url: null,
    snippet: null,
    score: null,
    scoreKind: null,
    page: null,
    pageEnd: null,
    pages: [],
    quote: null,
    kind: 'web',
    format: 'test',
    refs: [index],
    anchors: [],
    date: null,
    ...extra,
  };
}
