/**
 * Baidu Qianfan V2 chat completions (`https://qianfan.baidubce.com/v2/chat/completions`) with
 * `web_search: {enable, enable_trace, enable_citation}`: a top-level `search_results` list of
 * {index, url, title}, `index` being the number the answer's `^[n]^` (several: `^[1][2]^`)
 * writes; the marker itself is core's (markers.ts). Streamed, the list rides on the first chunk
 * (beside text) and on the last. Qianfan documents no other field of a result: only these are read.
 */

import { int, isObject, objects, str } from '../json.js';
import type { Draft, Format } from '../model.js';

/** Qianfan's results are numbered by an `index`; Perplexity's, under the same key, are not. */
const isNumbered = (result: unknown): boolean => isObject(result) && int(result.index) !== null;

export const qianfan: Format = {
  name: 'qianfan',
  extract(payload) {
    const given = payload.search_results;
    if (!Array.isArray(given) || !given.some(isNumbered)) return null;
    const drafts = objects(given).map((result, i): Draft => {
      const url = str(result.url);
      const index = int(result.index);
      return {
        id: url ?? `search-result-${i + 1}`,
        title: str(result.title),
        url,
        kind: 'web',
        // An item without a number of its own is listed, but no marker can name it.
        refs: index !== null && index > 0 ? [index] : [],
      };
    });
    return { drafts, ordered: true };
  },
};
