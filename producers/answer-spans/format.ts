/**
 * Quote-grounded answers: top-level `citations` of {section_id, title, page_start, page_end,
 * quote, quote_start, quote_end, content}. Offsets index `content` (the engine counts UTF-8
 * bytes; -1 marks a paraphrase); the quote is checked against `content` in finalize.
 */

import { int, objects, str } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

export const answerSpans: Format = {
  name: 'answer-spans',
  extract(payload) {
    const citations = objects(payload.citations);
    if (citations.length === 0 || !citations.some((c) => 'quote' in c || 'section_id' in c)) return null;
    const drafts = citations.map((citation, i): Draft => {
      const quote = str(citation.quote);
      const section = str(citation.section_id) ?? int(citation.section_id)?.toString() ?? null;
      return {
        id: `section:${section ?? str(citation.title) ?? i + 1}`,
        title: str(citation.title),
        snippet: str(citation.content),
        page: int(citation.page_start),
        pageEnd: int(citation.page_end),
        quote: quote ? { text: quote, start: int(citation.quote_start), end: int(citation.quote_end) } : null,
        kind: 'document',
        refs: [i + 1],
      };
    });
    return { drafts, ordered: true };
  },
};
