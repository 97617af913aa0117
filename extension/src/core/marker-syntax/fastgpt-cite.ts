/** FastGPT's [<quote id>](CITE), a dataset chunk's 24-hex id, and the 【id】(CITE) its own cleanup reads. */

import type { MarkerSyntax } from './syntax.js';

const CITE_LINK = /^[[【][a-fA-F0-9]{24}[\]】]\(CITE\)$/;

export const fastgptCite: MarkerSyntax = {
  group: 'cite',
  pattern: String.raw`[\[【](?<cite>[a-fA-F0-9]{24})[\]】]\(CITE\)`,
  read: (g) => ({ kind: 'id', id: g.cite! }),
  leads: ['(CITE)'],
  // Open WebUI draws it as the link to "CITE" it is.
  drawnByOpenWebui: (marker) => (CITE_LINK.test(marker) ? { drawnByOpenWebui: false, numbers: [] } : undefined),
};
