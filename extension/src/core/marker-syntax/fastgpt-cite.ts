/** FastGPT's [<quote id>](CITE), a dataset chunk's 24-hex id, and the 【id】(CITE) its own cleanup reads. */

import type { MarkerSyntax } from './syntax.js';

export const fastgptCite: MarkerSyntax = {
  group: 'cite',
  pattern: String.raw`[\[【](?<cite>[a-fA-F0-9]{24})[\]】]\(CITE\)`,
  read: (g) => ({ kind: 'id', id: g.cite! }),
};
