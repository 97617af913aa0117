/** OpenAI-style url_citation annotations, nested (Chat Completions) or flat (Responses, some proxies). */

import { int, isObject, type JsonObject, obj, str } from './json.js';
import type { Draft, OffsetUnit } from './model.js';

export interface UrlCitation {
  url: string;
  title: string | null;
  start: number | null;
  end: number | null;
}

export function urlCitation(annotation: unknown): UrlCitation | null {
  if (!isObject(annotation) || annotation.type !== 'url_citation') return null;
  const body = obj(annotation.url_citation) ?? annotation;
  const url = str(body.url);
  if (!url) return null;
  return { url, title: str(body.title), start: int(body.start_index), end: int(body.end_index) };
}

/**
 * One draft per cited URL, in first-seen order (which is how grok2api numbers `[[N]]`), each
 * with every span the annotations give it. A title that is only digits is the marker number
 * grok2api (Go) writes when it knows no page title, not a title.
 */
export function draftsFromAnnotations(
  annotations: unknown[],
  unit: OffsetUnit,
  kind: (url: string) => Draft['kind'] = () => 'web',
): Draft[] {
  const byUrl = new Map<string, Draft>();
  for (const citation of annotations.map(urlCitation)) {
    if (!citation) continue;
    let draft = byUrl.get(citation.url);
    if (!draft) {
      draft = { id: citation.url, url: citation.url, kind: kind(citation.url), refs: [byUrl.size + 1], anchors: [] };
      byUrl.set(citation.url, draft);
    }
    if (citation.title && !/^\d+$/.test(citation.title)) draft.title ??= citation.title;
    if (citation.start !== null && citation.end !== null)
      draft.anchors!.push({ start: citation.start, end: citation.end, unit });
  }
  return [...byUrl.values()];
}

/** `message.annotations` of a body, or `delta.annotations` of a chunk. */
export function chatAnnotations(choice: JsonObject | null): unknown[] {
  const message = obj(choice?.message) ?? obj(choice?.delta);
  return Array.isArray(message?.annotations) ? message.annotations : [];
}
