/**
 * Brave Answers (AI Grounding, streamed with `enable_citations`): each source is a
 * `<citation>{start_index, end_index, number, url, favicon, snippet}</citation>` tag in the
 * answer's text, after the sentence it supports; `number` is 1-based and repeats when a source
 * is cited again. There is no title. The tags' offsets have no documented unit: not used.
 */

import { firstChoice, obj, str } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';
import { answerTags } from '../../extension/src/core/tags.js';

export const brave: Format = {
  name: 'brave',
  extract(payload) {
    const message = obj(firstChoice(payload)?.message);
    const tags = answerTags(typeof message?.content === 'string' ? message.content : '').filter(
      (t) => t.name === 'citation',
    );
    if (tags.length === 0) return null;
    const drafts = tags.flatMap(({ data, citedNumber: number }): Draft[] => {
      const url = str(data?.url);
      return url
        ? [
            {
              id: url,
              url,
              snippet: str(data?.snippet),
              kind: 'web',
              refs: number !== null && number >= 0 ? [number] : [],
            },
          ]
        : [];
    });
    return { drafts, ordered: true };
  },
};
