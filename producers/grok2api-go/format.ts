/**
 * xAI-style top-level `citations` (a list of URLs), as grok2api (Go era) and xAI send it:
 * "[[N]](url)" links with url_citation annotations (code points; a title that is only the
 * number N means no page title was known). Also Perplexity's older bodies, with [N] markers.
 */

import { chatAnnotations, draftsFromAnnotations } from '../../extension/src/core/annotations.js';
import { arr, firstChoice, str } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

export const grok2apiGo: Format = {
  name: 'grok2api-go',
  extract(payload) {
    const urls = arr(payload.citations);
    if (urls.length === 0 || !urls.every((u) => typeof u === 'string')) return null;
    const drafts: Draft[] = draftsFromAnnotations(chatAnnotations(firstChoice(payload)), 'codePoints');
    const cited = new Set(drafts.map((d) => d.id));
    for (const url of urls.map(str)) {
      if (url && !cited.has(url)) drafts.push({ id: url, url, kind: 'web', refs: [drafts.length + 1] });
      if (url) cited.add(url);
    }
    return { drafts, ordered: true };
  },
};
