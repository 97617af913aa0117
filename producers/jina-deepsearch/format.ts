/**
 * Jina DeepSearch: `url_citation` annotations without offsets ({title, exactQuote, url,
 * dateTime}), `[^n]` markers in the answer, and `[^n]: quote [title](url)` definitions at its
 * end. The definitions number the sources; an annotation adds its date and exact quote to the
 * definition of its URL. Open WebUI drops a streamed chunk's annotations when it also carries
 * text (Jina's final chunk does): the definitions in the text then give the sources alone.
 */

import { chatAnnotations } from '../../extension/src/core/annotations.js';
import { footnoteBlock } from '../../extension/src/core/footnotes.js';
import { firstChoice, isObject, type JsonObject, obj, str } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

/** An annotation of Jina's shape: a url_citation with an exact quote and no offsets. */
function jinaCitation(annotation: unknown): JsonObject | null {
  if (!isObject(annotation) || annotation.type !== 'url_citation') return null;
  const body = obj(annotation.url_citation) ?? annotation;
  return str(body.url) && 'exactQuote' in body && !('start_index' in body) ? body : null;
}

export const jinaDeepsearch: Format = {
  name: 'jina-deepsearch',
  extract(payload) {
    const message = obj(firstChoice(payload)?.message) ?? obj(firstChoice(payload)?.delta);
    const annotations = chatAnnotations(firstChoice(payload))
      .map(jinaCitation)
      .filter((a): a is JsonObject => a !== null);
    const block = footnoteBlock(typeof message?.content === 'string' ? message.content : '');
    const linked = block?.definitions.filter((d) => d.url) ?? [];
    if (annotations.length === 0 && linked.length === 0) return null;
    const byUrl = new Map<string, Draft>();
    for (const d of linked) {
      const draft = byUrl.get(d.url!) ?? { id: d.url!, url: d.url, title: d.title, kind: 'web', refs: [] };
      draft.refs!.push(d.n);
      if (d.quote) draft.quote ??= { text: d.quote, start: null, end: null };
      byUrl.set(d.url!, draft);
    }
    annotations.forEach((annotation, i) => {
      const url = str(annotation.url)!;
      // Without definitions, the n-th annotation is [^n]; with them, one they omit is not cited.
      const draft = byUrl.get(url) ?? { id: url, url, kind: 'web', refs: linked.length ? [] : [i + 1] };
      draft.title = str(annotation.title) ?? draft.title ?? null;
      draft.date = str(annotation.dateTime);
      const quote = str(annotation.exactQuote);
      if (quote) draft.quote = { text: quote, start: null, end: null };
      byUrl.set(url, draft);
    });
    return { drafts: [...byUrl.values()], ordered: true };
  },
};
