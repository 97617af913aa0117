/**
 * Groq compound systems: the built-in tools the model ran, in `message.executed_tools`
 * (streamed as `delta.executed_tools`, by tool `index`); web search results in
 * `search_results.results` ({title, url, content, score}), visited pages in `browser_results`.
 * The answer cites them with markdown links to their URLs.
 */

import { firstChoice, num, obj, objects, str } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

export const groqCompound: Format = {
  name: 'groq-compound',
  extract(payload) {
    const message = obj(firstChoice(payload)?.message) ?? obj(firstChoice(payload)?.delta);
    const tools = objects(message?.executed_tools);
    if (tools.length === 0) return null;
    const results = tools.flatMap((tool) => [
      ...objects(obj(tool.search_results)?.results),
      ...objects(tool.browser_results),
    ]);
    const drafts = results.flatMap((result): Draft[] => {
      const url = str(result.url);
      if (!url) return [];
      return [
        {
          id: url,
          title: str(result.title),
          url,
          snippet: str(result.content),
          score: num(result.score),
          scoreKind: 'similarity',
          kind: 'web',
        },
      ];
    });
    if (results.length === 0) return null; // tools that searched nothing (code execution)
    drafts.forEach((draft, i) => (draft.refs = [i + 1]));
    return { drafts, ordered: true };
  },
};
