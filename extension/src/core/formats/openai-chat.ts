/**
 * OpenAI Chat Completions url_citation annotations (search models, OpenRouter, Helicone…):
 * `message.annotations`, or `delta.annotations` when a proxy streams them, nested or flat.
 * Each covers a span of the answer (usually a markdown link); offsets counted in code points.
 */

import { chatAnnotations, draftsFromAnnotations } from '../annotations.js';
import { firstChoice } from '../json.js';
import type { Format } from '../model.js';

export const openaiChat: Format = {
  name: 'openai-chat',
  extract(payload) {
    const drafts = draftsFromAnnotations(chatAnnotations(firstChoice(payload)), 'codePoints');
    return drafts.length ? { drafts, ordered: true } : null;
  },
};
