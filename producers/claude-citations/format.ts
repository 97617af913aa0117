/**
 * Anthropic Claude's citations as the LiteLLM proxy relays them: `message.provider_specific_fields
 * .citations`, one list per cited text block, of Anthropic citation objects (`char_location`,
 * `page_location` with an exclusive end page, `content_block_location`, `search_result_location`,
 * `web_search_result_location`); streamed, one chunk per citation with `delta.provider_specific_fields
 * .citation`, before the text it supports. One source per document or URL; `cited_text` is its
 * quote. Not streamed, LiteLLM adds `supported_text`, the answer text a citation supports: its
 * button goes at the end of that text. `web_search_results` lists the pages searched.
 */

import { arr, firstChoice, int, isObject, type JsonObject, obj, objects, str } from '../../extension/src/core/json.js';
import type { Draft, Format, StreamPart } from '../../extension/src/core/model.js';
import { isWebUrl } from '../../extension/src/core/urls.js';

/** The field of a streamed chunk whose citations are placed by where the chunk comes in the text:
 * LiteLLM streams each of Claude's citations after the text it supports. */
export const PLACED_BY_POSITION = 'provider_specific_fields';

function draft(citation: JsonObject): Draft | null {
  const quote = str(citation.cited_text);
  const common = { quote: quote ? { text: quote, start: null, end: null } : null, refs: [], anchors: [] };
  if (citation.type === 'web_search_result_location' || citation.type === 'search_result_location') {
    const url = str(citation.url) ?? str(citation.source);
    if (!url) return null;
    return {
      id: url,
      url: isWebUrl(url) ? url : null,
      title: str(citation.title),
      kind: isWebUrl(url) ? 'web' : 'document',
      ...common,
    };
  }
  const index = int(citation.document_index);
  const title = str(citation.document_title);
  if (index === null && !title) return null;
  const start = int(citation.start_page_number);
  const end = int(citation.end_page_number);
  return {
    id: `document:${index ?? title}`,
    title,
    page: citation.type === 'page_location' ? start : null,
    pageEnd: citation.type === 'page_location' && start !== null && end !== null ? end - 1 : null,
    kind: 'document',
    ...common,
  };
}

/** LiteLLM streams Claude's citations one per chunk (`delta.provider_specific_fields.citation`),
 * each after the text of its block (Anthropic's citations_delta): it supports the text since the
 * previous cited stretch, the `supported_text` LiteLLM adds when not streaming. Kept as offsets
 * until the text is whole, then written as the non-streamed body has them (`citations`). */
function claudeStream(): StreamPart {
  const cited: Array<{ citation: JsonObject; start: number; end: number }> = [];
  let from = 0;
  let to = 0;
  return {
    read(chunk, stream) {
      const citation = obj(obj(obj(firstChoice(chunk)?.delta)?.[PLACED_BY_POSITION])?.citation);
      if (!citation) return;
      const length = stream.text().length;
      if (length > to) [from, to] = [to, length];
      cited.push({ citation, start: from, end: to });
    },
    into(_body, message, text) {
      const fields = obj(message.provider_specific_fields);
      if (!fields) return undefined;
      const { citation: _one, ...kept } = fields; // each is in `citations`, placed
      const citations = cited.map(({ citation, start, end }) => [
        { supported_text: text.slice(start, end), ...citation },
      ]);
      message.provider_specific_fields = citations.length ? { ...kept, citations } : kept;
      return undefined;
    },
  };
}

export const claudeCitations: Format = {
  name: 'claude-citations',
  stream: claudeStream,
  extract(payload) {
    const message = obj(firstChoice(payload)?.message) ?? obj(firstChoice(payload)?.delta);
    const fields = obj(message?.provider_specific_fields);
    if (
      !fields ||
      (!Array.isArray(fields.citations) && !isObject(fields.citation) && !Array.isArray(fields.web_search_results))
    )
      return null;
    const cited = arr(fields.citations).flatMap((block) => (Array.isArray(block) ? objects(block) : objects([block])));
    if (isObject(fields.citation)) cited.push(fields.citation);
    const content = typeof message?.content === 'string' ? message.content : '';
    const drafts: Draft[] = [];
    let from = 0;
    for (const citation of cited) {
      const found = draft(citation);
      if (!found) continue;
      const supported = str(citation.supported_text);
      const at = supported ? content.indexOf(supported, from) : -1;
      if (at >= 0) {
        found.anchors!.push({ start: at, end: at + supported!.length, unit: 'utf16' });
        from = at;
      }
      drafts.push(found);
    }
    const searched = objects(fields.web_search_results).flatMap((result) => objects(result.content));
    for (const page of searched) {
      const url = str(page.url);
      if (isWebUrl(url))
        drafts.push({ id: url, url, title: str(page.title), kind: 'web', date: str(page.page_age), refs: [] });
    }
    // Numbered in the order first cited; the refs say so to the markers (there are none in the text).
    const order = new Map<string, number>();
    for (const d of drafts) if (!order.has(d.id)) order.set(d.id, order.size + 1);
    drafts.forEach((d) => (d.refs = [order.get(d.id)!]));
    return { drafts, ordered: true };
  },
};
