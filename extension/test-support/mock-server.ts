/** Starts the project's real mock server for the core's tests: the scenarios are the fixtures (the unnamed
 * corpus, not served here, is measured apart: scripts/unnamed_recall.py). */

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PYTHON = process.env.MOCK_PYTHON ?? `${ROOT}.venv/bin/python`;
// Node's own fetch, kept before a DOM test installs happy-dom's, which logs every connection refused
// while the server starts.
const nodeFetch = globalThis.fetch;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface MockServer {
  url: string;
  stop(): void;
  /** Every model it serves: to OpenAI clients (/v1/models), then to Ollama's (/api/tags). */
  models(): Promise<string[]>;
  /** A scenario's non-streaming body; an Ollama one's as Open WebUI hands it to the page. */
  body(model: string): Promise<Record<string, unknown>>;
  /** A scenario's stream as its raw SSE text; an Ollama one's as Open WebUI hands it to the page. */
  stream(model: string): Promise<string>;
}

/** What Open WebUI makes of an Ollama answer for the page: OpenAI's shape (utils/response.py
 * convert_response_ollama_to_openai), each streamed line a chunk, then [DONE]
 * (convert_streaming_response_ollama_to_openai). The message's content is all it keeps of it. */
type OllamaAnswer = { model?: string; message?: { content?: string }; done_reason?: string };
const relayedBody = ({ model, message, done_reason }: OllamaAnswer) => ({
  object: 'chat.completion',
  model,
  choices: [
    { index: 0, message: { role: 'assistant', content: message?.content ?? '' }, finish_reason: done_reason ?? 'stop' },
  ],
});
const relayedStream = (ndjson: string): string =>
  ndjson
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const { model, message, done_reason } = JSON.parse(line) as OllamaAnswer;
      const delta = message?.content ? { content: message.content } : {};
      const chunk = {
        object: 'chat.completion.chunk',
        model,
        choices: [{ index: 0, delta, finish_reason: done_reason ?? null }],
      };
      return `data: ${JSON.stringify(chunk)}\n\n`;
    })
    .join('')
    .concat('data: [DONE]\n\n');

/** The producers' hostile twins and malformed variants (mock_server/registry.py HOSTILE, MALFORMED), served
 * beside the scenarios when asked for. */
export const HOSTILE_SCENARIOS = 'producers/*/hostile.yaml';
export const MALFORMED_SCENARIOS = 'producers/*/malformed*.yaml';

/** The mock server, serving `scenarios` (globs of scenario files, from the repository's root) besides its own. */
export async function startMockServer(scenarios: readonly string[] = []): Promise<MockServer> {
  const port = await freePort();
  const loaded = scenarios.flatMap((glob) => ['--scenarios', glob]);
  // The answers, not their pace: without the producers' own pauses.
  const args = [
    '-m',
    'mock_server',
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--no-corpus',
    '--no-pauses',
    ...loaded,
  ];
  const child = spawn(PYTHON, args, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    try {
      if ((await nodeFetch(`${url}/v1/models`)).ok) break;
    } catch {
      if (tries > 120 || child.exitCode !== null) throw new Error(`mock server did not start (${PYTHON})`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const tags = (await (await fetch(`${url}/api/tags`)).json()) as { models: Array<{ model: string }> };
  // Listed with Ollama's tag (`lightrag:latest`): the scenario is the name before it.
  const ollama = new Set(tags.models.map((m) => m.model.replace(/:latest$/, '')));
  const askOllama = async (model: string, stream: boolean): Promise<Response> => {
    const response = await fetch(`${url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: '?' }], stream }),
    });
    if (!response.ok) throw new Error(`${model}: HTTP ${response.status}`);
    return response;
  };
  const request = async (model: string, stream: boolean): Promise<Response> => {
    const responses = /^((hostile|malformed)-)?openai-responses/.test(model); // and its hostile, malformed twins
    // As a user who asked for sources: RAGFlow sends them only with `extra_body.reference`.
    const body = responses
      ? { model, input: '?', stream }
      : { model, messages: [{ role: 'user', content: '?' }], stream, extra_body: { reference: true } };
    const response = await fetch(`${url}/v1/${responses ? 'responses' : 'chat/completions'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${model}: HTTP ${response.status}`);
    return response;
  };
  return {
    url,
    stop: () => void child.kill(),
    models: async () => {
      const openai = (await (await fetch(`${url}/v1/models`)).json()) as { data: Array<{ id: string }> };
      return [...openai.data.map((m) => m.id), ...ollama];
    },
    body: async (model) =>
      ollama.has(model)
        ? relayedBody(await (await askOllama(model, false)).json())
        : ((await request(model, false)).json() as Promise<Record<string, unknown>>),
    stream: async (model) =>
      ollama.has(model)
        ? relayedStream(await (await askOllama(model, true)).text())
        : (await request(model, true)).text(),
  };
}

/** The answer text of a chat completion or Responses body; of a content list (Mistral's), its text chunks. */
export function answerOf(body: Record<string, unknown>): string {
  type Chunk = { type?: string; text?: string } | null;
  const chat = (body.choices as Array<{ message: { content: string | Chunk[] } }> | undefined)?.[0]?.message.content;
  if (Array.isArray(chat)) return chat.map((chunk) => (chunk?.type === 'text' ? chunk.text : '')).join('');
  if (chat !== undefined) return chat;
  const output = body.output as Array<{ content?: Array<{ text: string }> }>;
  return output.at(-1)!.content![0]!.text;
}
