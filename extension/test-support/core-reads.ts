/** What today's core reads in what a backend sends for a scenario, the way capture reads it: a non-streamed
 * body whole, a stream's events one by one through the accumulator. The answers the real LiteLLM proxy
 * relays (Claude, Gemini, a knowledge base) are its recordings (core/fixtures/litellm), not the mock's. */

import { existsSync, readFileSync } from 'node:fs';
import { type Citation, createAccumulator, extractCitations } from '../src/core/index.js';
import type { MockServer } from './mock-server.js';

const LITELLM = new URL('../src/core/fixtures/litellm/', import.meta.url);

const MOCK_ORIGIN = /http:\/\/127\.0\.0\.1:\d+/;

/** The scenario's citations as the core reads them now, for an answer `drawn` as the page drew it, the mock's
 * address written as there (each run of the mock has a port of its own, which its answers name); null for one
 * neither served by the mock nor recorded from LiteLLM (a hostile or malformed twin LiteLLM relays). */
export async function citationsNow(
  mock: MockServer,
  served: ReadonlySet<string>,
  model: string,
  stream: boolean,
  drawn = '',
): Promise<readonly Citation[] | null> {
  // Read once a scenario and mode (each line's recordings, live and reloaded, ask again); each caller
  // gets its own copy.
  const key = `${stream}:${model}`;
  const reads = readsOf.get(mock) ?? new Map<string, Promise<string | null>>();
  readsOf.set(mock, reads);
  if (!reads.has(key))
    reads.set(
      key,
      read(mock, served, model, stream).then((c) => c && JSON.stringify(c)),
    );
  const citations = await reads.get(key)!;
  if (citations === null) return null;
  const origin = MOCK_ORIGIN.exec(drawn)?.[0];
  return JSON.parse(origin ? citations.replace(new RegExp(MOCK_ORIGIN.source, 'g'), origin) : citations) as Citation[];
}

const readsOf = new WeakMap<MockServer, Map<string, Promise<string | null>>>();

async function read(
  mock: MockServer,
  served: ReadonlySet<string>,
  model: string,
  stream: boolean,
): Promise<readonly Citation[] | null> {
  const sent = await sentFor(mock, served, model, stream);
  if (sent === null || typeof sent !== 'string') return sent && extractCitations(sent).citations;
  const accumulator = createAccumulator();
  for (const event of sent.split('\n\n')) accumulator.add(event);
  return accumulator.result().citations;
}

/** What the page receives for the scenario: a body, or a stream's SSE text; null when neither the mock serves
 * it nor LiteLLM's answer in that mode is recorded. */
export async function sentFor(
  mock: MockServer,
  served: ReadonlySet<string>,
  model: string,
  stream: boolean,
): Promise<string | Record<string, unknown> | null> {
  const recorded = new URL(`${model}.${stream ? 'sse' : 'json'}`, LITELLM);
  if (existsSync(recorded)) return stream ? readFileSync(recorded, 'utf8') : JSON.parse(readFileSync(recorded, 'utf8'));
  if (served.has(model)) return stream ? mock.stream(model) : mock.body(model);
  return null;
}
