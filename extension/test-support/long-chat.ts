/**
 * A stored chat as Open WebUI answers `GET /api/v1/chats/<id>`: `answers` question/answer pairs,
 * each answer a grok2api answer of `sources` search sources cited inline, stored as this
 * extension stores them (persist/shape.ts): the chat `make bench` opens (bench/figures.py).
 */

import { extractCitations } from '../src/core/index.js';
import { toNativeSource } from '../src/persist/shape.js';

/** The answer of `sources` sources, as grok2api sends it (bench/scenarios/bench-sources.yaml). */
function grokAnswer(sources: number): { content: string; stored: unknown[] } {
  const url = (i: number) => `http://127.0.0.1:8080/static/web/rolldown-1-0.html?result=${i}`;
  const numbers = Array.from({ length: sources }, (_, i) => i + 1);
  const content = numbers
    .map((i) => ` Finding ${i} is reported by source ${i}, l’été 2025. [[${i}]](${url(i)})`)
    .join('');
  const { citations } = extractCitations({
    choices: [{ index: 0, message: { role: 'assistant', content } }],
    search_sources: numbers.map((i) => ({ url: url(i), title: `Finding ${i} — news report`, type: 'web' })),
  });
  return { content, stored: [toNativeSource(citations)] };
}

export interface LongChat {
  id: string;
  chat: { title: string; history: { currentId: string; messages: Record<string, Record<string, unknown>> } };
}

const messageId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function longChat(answers: number, sources = 20): LongChat {
  const { content, stored } = grokAnswer(sources);
  const messages: Record<string, Record<string, unknown>> = {};
  let parentId: string | null = null;
  for (let n = 0; n < 2 * answers; n++) {
    const id = messageId(n);
    const answer = n % 2 === 1;
    messages[id] = {
      id,
      parentId,
      childrenIds: n + 1 < 2 * answers ? [messageId(n + 1)] : [],
      role: answer ? 'assistant' : 'user',
      content: answer ? content : `Question ${n >> 1}?`,
      timestamp: 1_751_640_000 + n,
      ...(answer ? { model: 'bench-20-sources', done: true, sources: structuredClone(stored) } : {}),
    };
    parentId = id;
  }
  return {
    id: '11111111-1111-4111-8111-111111111111',
    chat: { title: `${answers} answers`, history: { currentId: parentId!, messages } },
  };
}
