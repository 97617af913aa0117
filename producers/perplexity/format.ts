/**
 * Perplexity Sonar: top-level `search_results` ({title, url, date, snippet, …}) and
 * `citations` (their URLs, same order). `[N]` is the N-th result.
 */

import { arr, objects, str } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

export const perplexity: Format = {
  name: 'perplexity',
  extract(payload) {
    const given = payload.search_results;
    if (given === undefined || given === null || (Array.isArray(given) && given.length === 0)) return null;
    const results = objects(given);
    if (results.length === 0) return { drafts: [], ordered: true }; // not a list, or nothing readable in it
    const urls = arr(payload.citations);
    const drafts = results.map((result, i): Draft => {
      const url = str(result.url) ?? str(urls[i]);
      return {
        id: url ?? `result${i + 1}`,
        title: str(result.title),
        url,
        snippet: str(result.snippet),
        date: str(result.date),
        kind: result.source === 'attachment' ? 'file' : 'web',
        refs: [i + 1],
      };
    });
    return { drafts, ordered: true };
  },
};
