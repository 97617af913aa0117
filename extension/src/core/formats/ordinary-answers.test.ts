import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { createAccumulator } from '../accumulate.js';
import { extractCitations } from '../extract.js';
import { linkMarkers } from '../markers.js';

// The ordinary corpus: answers (written by scripts/ordinary_corpus.py) and payloads (hand-built and
// generated) that carry no sources. Every answer must keep all its text: no source read from it,
// nothing of it hidden.
const fixture = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as T;
const answerGroups = fixture<{ groups: Array<{ name: string; answers: string[] }> }>('ordinary-answers.json').groups;
const payloadCount = ['ordinary-payloads.json', 'ordinary-payloads-generated.json']
  .flatMap((name) => fixture<{ groups: Array<{ payloads: unknown[] }> }>(name).groups)
  .reduce((count, group) => count + group.payloads.length, 0);
const answers = answerGroups.flatMap((group) => group.answers.map((text) => ({ group: group.name, text })));

const MODEL = 'qwen2.5:7b';
const CREATED = 1735689600;

/** The answer in pieces of 1 to 23 characters, varied by its length (whole code points). */
function pieces(text: string): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let at = 0, n = text.length; at < chars.length; n++) {
    const size = 1 + (n % 23);
    out.push(chars.slice(at, at + size).join(''));
    at += size;
  }
  return out;
}

const USAGE = { prompt_tokens: 20, completion_tokens: 200, total_tokens: 220 };
const SAFE = { filtered: false, severity: 'safe' };

/** A non-streamed OpenAI-compatible body: the message's fields and the body's own beside it. */
const completion = (message: object, top: object = {}, choice: object = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: CREATED,
  model: MODEL,
  choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop', ...choice }],
  usage: USAGE,
  ...top,
});

/** The answer as each backend and Open WebUI carry it whole: a non-streamed OpenAI-compatible body
 * (plain; Claude and Gemini through LiteLLM, without citations or grounding; Azure OpenAI with its
 * content filter results), Ollama's /api/chat and /api/generate bodies, Open WebUI's last
 * chat:completion event and its stored message. */
function wholes(text: string): Array<[string, unknown]> {
  return [
    ['chat.completion', completion({ content: text })],
    [
      'litellm claude',
      completion({
        content: text,
        tool_calls: null,
        function_call: null,
        provider_specific_fields: { citations: null, thinking_blocks: null },
      }),
    ],
    [
      'litellm gemini',
      completion(
        { content: text, images: [], thinking_blocks: [] },
        { vertex_ai_grounding_metadata: [], vertex_ai_url_context_metadata: [], vertex_ai_citation_metadata: [] },
      ),
    ],
    [
      'azure openai',
      completion(
        { content: text, refusal: null },
        { prompt_filter_results: [{ prompt_index: 0, content_filter_results: { hate: SAFE, violence: SAFE } }] },
        { content_filter_results: { hate: SAFE, protected_material_text: { filtered: false, detected: false } } },
      ),
    ],
    [
      'ollama /api/generate',
      { model: MODEL, created_at: '2025-03-01T10:00:00Z', response: text, done: true, done_reason: 'stop' },
    ],
    [
      'ollama /api/chat',
      {
        model: MODEL,
        created_at: '2025-03-01T10:00:00Z',
        message: { role: 'assistant', content: text },
        done: true,
        done_reason: 'stop',
      },
    ],
    ['open webui chat:completion', { type: 'chat:completion', data: { done: true, content: text, title: 'Links' } }],
    [
      'open webui stored message',
      {
        id: 'm2',
        parentId: 'm1',
        childrenIds: [],
        role: 'assistant',
        content: text,
        model: MODEL,
        modelName: MODEL,
        modelIdx: 0,
        timestamp: CREATED,
        done: true,
      },
    ],
  ];
}

/** The answer streamed: OpenAI-compatible chunks (role, content pieces, finish, usage), the
 * Responses API's events (deltas, then the completed response holding the whole text) and Ollama's
 * /api/chat NDJSON lines. */
function streams(text: string): Array<[string, unknown[]]> {
  const chunk = (delta: object, finish: string | null = null) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: CREATED,
    model: MODEL,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const message = { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed' };
  const part = { type: 'output_text', text, annotations: [] };
  return [
    [
      'chat.completion.chunk',
      [
        chunk({ role: 'assistant', content: '' }),
        ...pieces(text).map((content) => chunk({ content })),
        chunk({}, 'stop'),
        { ...chunk({}), choices: [], usage: USAGE },
      ],
    ],
    [
      'responses events',
      [
        ...pieces(text).map((delta, n) => ({
          type: 'response.output_text.delta',
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          delta,
          logprobs: [],
          sequence_number: n + 1,
        })),
        {
          type: 'response.completed',
          sequence_number: 100000,
          response: {
            id: 'resp_1',
            object: 'response',
            status: 'completed',
            output: [{ ...message, content: [part] }],
          },
        },
      ],
    ],
    [
      'ollama /api/chat lines',
      [
        ...pieces(text).map((content) => ({
          model: MODEL,
          created_at: '2025-03-01T10:00:00Z',
          message: { role: 'assistant', content },
          done: false,
        })),
        { model: MODEL, created_at: '2025-03-01T10:00:09Z', message: { role: 'assistant', content: '' }, done: true },
      ],
    ],
  ];
}

// Sources a backend sent beside the answer (in its own field): the answer's own lists of links,
// tables and code must still show whole.
const sentBeside = extractCitations({
  choices: [{ index: 0, message: { role: 'assistant', content: 'x' } }],
  references: [
    { url: 'https://a.example/x', title: 'A', snippet: 'a' },
    { url: 'https://b.example/y', title: 'B', snippet: 'b' },
    { url: 'https://c.example/z', title: 'C', snippet: 'c' },
  ],
}).citations;

const hidden = (text: string, citations: Parameters<typeof linkMarkers>[1]) =>
  linkMarkers(text, citations)
    .filter((span) => span.kind === 'hide')
    .map((span) => text.slice(span.start, span.end));

test('the ordinary corpus holds at least 2,000 payloads and answers, in six languages at least', () => {
  assert.ok(payloadCount + answers.length >= 2000, `${payloadCount} payloads + ${answers.length} answers`);
  assert.equal(sentBeside.length, 3);
  for (const word of ['See also', '参见', '関連項目', 'Siehe auch', 'Voir aussi', 'Véase también'])
    assert.ok(
      answers.some(({ text }) => text.includes(word)),
      word,
    );
});

test('an ordinary answer, whole or streamed, gives no source and keeps all its text', () => {
  for (const { group, text } of answers) {
    const where = `${group}: ${text.slice(0, 120)}`;
    for (const [carrier, payload] of wholes(text)) {
      const found = extractCitations(payload);
      assert.deepEqual([found.format, found.citations], [null, []], `${carrier} — ${where}`);
      assert.deepEqual(hidden(text, found.citations), [], `${carrier} — ${where}`);
    }
    for (const [carrier, chunks] of streams(text)) {
      const stream = createAccumulator();
      for (const chunk of chunks) stream.add(chunk);
      const found = stream.result();
      assert.deepEqual([found.format, found.citations], [null, []], `${carrier} — ${where}`);
      // And the chunks as the page may hand them over at once: a list.
      assert.deepEqual(extractCitations(chunks).citations, [], `${carrier} as a list — ${where}`);
      if (carrier === 'chat.completion.chunk') assert.equal(stream.text(), text, where);
      assert.deepEqual(hidden(stream.text(), found.citations), [], `${carrier} — ${where}`);
    }
    assert.deepEqual(hidden(text, sentBeside), [], `beside sources sent elsewhere — ${where}`);
  }
});
