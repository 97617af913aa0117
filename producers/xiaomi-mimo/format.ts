/**
 * Xiaomi MiMo's web search (`tools: [{type: "web_search"}]` on its chat completions): flat
 * `url_citation` annotations, {type, url, title, site_name, summary}, without OpenAI's nested
 * `url_citation` object and without offsets; streamed whole in the first chunk's
 * `delta.annotations`. openai-chat.ts would read their links and titles; this keeps `summary`,
 * the page's excerpt, and names a page by its site when it has no title. No marker convention is
 * known: a `[N]` is taken as the N-th page, as openai-chat.ts numbers annotations.
 */

import { chatAnnotations } from '../../extension/src/core/annotations.js';
import { firstChoice, isObject, type JsonObject, str } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

/** A flat url_citation with a link: nested ones are OpenAI's (openai-chat.ts). */
const isFlatCitation = (annotation: unknown): annotation is JsonObject =>
  isObject(annotation) &&
  annotation.type === 'url_citation' &&
  !('url_citation' in annotation) &&
  str(annotation.url) !== null;

// What only MiMo's annotations carry: OpenAI's flat ones (Responses, proxies) have offsets instead.
const isMimoCitation = (annotation: JsonObject): boolean => 'site_name' in annotation || 'summary' in annotation;

export const xiaomiMimo: Format = {
  name: 'xiaomi-mimo',
  extract(payload) {
    const citations = chatAnnotations(firstChoice(payload)).filter(isFlatCitation);
    if (!citations.some(isMimoCitation)) return null;
    // One source per page, numbered as first met.
    const byUrl = new Map<string, Draft>();
    for (const citation of citations) {
      const url = str(citation.url)!;
      const draft: Draft = byUrl.get(url) ?? { id: url, url, kind: 'web', refs: [byUrl.size + 1] };
      draft.title ??= str(citation.title) ?? str(citation.site_name);
      draft.snippet ??= str(citation.summary);
      byUrl.set(url, draft);
    }
    return { drafts: [...byUrl.values()], ordered: true };
  },
};
