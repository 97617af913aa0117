/** Starts the project's real mock server for the core's tests: the scenarios are the fixtures. */

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PYTHON = process.env.MOCK_PYTHON ?? `${ROOT}.venv/bin/python`;

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
  /** A scenario's non-streaming body. */
  body(model: string): Promise<Record<string, unknown>>;
  /** A scenario's stream as its raw SSE text. */
  stream(model: string): Promise<string>;
}

export async function startMockServer(): Promise<MockServer> {
  const port = await freePort();
  const child = spawn(PYTHON, ['-m', 'mock_server', '--host', '127.0.0.1', '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    try {
      if ((await fetch(`${url}/v1/models`)).ok) break;
    } catch {
      if (tries > 120 || child.exitCode !== null) throw new Error(`mock server did not start (${PYTHON})`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const request = async (model: string, stream: boolean): Promise<Response> => {
    const responses = model.startsWith('openai-responses');
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
    body: async (model) => (await request(model, false)).json() as Promise<Record<string, unknown>>,
    stream: async (model) => (await request(model, true)).text(),
  };
}

/** The answer text of a chat completion or Responses body. */
export function answerOf(body: Record<string, unknown>): string {
  const chat = (body.choices as Array<{ message: { content: string } }> | undefined)?.[0]?.message.content;
  if (chat !== undefined) return chat;
  const output = body.output as Array<{ content?: Array<{ text: string }> }>;
  return output.at(-1)!.content![0]!.text;
}
