/**
 * grok2api, Python era: top-level `search_sources` ({url, title, type: "web" | "x_post"}) and
 * url_citation annotations whose span is the " [[N]](url)" link (code points). N is the
 * first-seen order of the cited URLs; the other search results follow, uncited.
 */

import { chatAnnotations, draftsFromAnnotations } from '../../extension/src/core/annotations.js';
import { firstChoice, objects, str } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

export const grok2api: Format = {
  name: 'grok2api',
  extract(payload) {
    const given = payload.search_sources;
    if (given === undefined || given === null) return null;
    if (!Array.isArray(given)) return { drafts: [], ordered: true }; // unreadable
    const results = new Map(objects(given).map((r) => [str(r.url), r]));
    const kindOf = (url: string): Draft['kind'] => (results.get(url)?.type === 'x_post' ? 'post' : 'web');
    const cited = draftsFromAnnotations(chatAnnotations(firstChoice(payload)), 'codePoints', kindOf);
    const byUrl = new Map(cited.map((draft) => [draft.id, draft]));
    for (const [url, result] of results) {
      if (!url) continue;
      const title = str(result.title);
      const draft = byUrl.get(url) ?? { id: url, url, kind: kindOf(url), refs: [byUrl.size + 1] };
      if (title !== url) draft.title ??= title; // grok2api falls back to the URL as title
      byUrl.set(url, draft);
    }
    if (byUrl.size === 0) return given.length ? { drafts: [], ordered: true } : null; // a list with nothing readable
    return { drafts: [...byUrl.values()], ordered: true };
  },
};
