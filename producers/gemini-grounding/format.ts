/**
 * Gemini's grounding as the LiteLLM proxy relays it: a top-level `vertex_ai_grounding_metadata`
 * (a list of one object, Gemini's `groundingMetadata`): `groundingChunks[].web {uri, title}`
 * (or `retrievedContext`), and `groundingSupports[]` whose `segment.startIndex/endIndex` are UTF-8
 * BYTES of the answer (startIndex left out when 0), each supported by every chunk of its
 * `groundingChunkIndices`. Read before LiteLLM's own url_citation annotations, which keep only the
 * first chunk of a support and drop a support without startIndex. `searchEntryPoint.renderedContent`
 * is Google's HTML: never read.
 */

import { arr, int, obj, objects, str } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';

export const geminiGrounding: Format = {
  name: 'gemini-grounding',
  extract(payload) {
    const metadata = obj(arr(payload.vertex_ai_grounding_metadata)[0]) ?? obj(payload.vertex_ai_grounding_metadata);
    const chunks = objects(metadata?.groundingChunks);
    if (chunks.length === 0) return null;
    const drafts = chunks.map((chunk, i): Draft => {
      const source = obj(chunk.web) ?? obj(chunk.retrievedContext) ?? {};
      const uri = str(source.uri);
      return {
        id: uri ?? `chunk${i}`,
        url: uri,
        title: str(source.title),
        snippet: str(source.text),
        kind: 'web',
        refs: [i + 1],
        anchors: [],
      };
    });
    for (const support of objects(metadata?.groundingSupports)) {
      const segment = obj(support.segment);
      const start = segment?.startIndex === undefined ? 0 : int(segment.startIndex);
      const end = int(segment?.endIndex);
      if (start === null || end === null) continue;
      for (const index of arr(support.groundingChunkIndices).map(int)) {
        if (index !== null && index >= 0) drafts[index]?.anchors?.push({ start, end, unit: 'utf8' });
      }
    }
    return { drafts, ordered: true };
  },
};
