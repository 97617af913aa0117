/**
 * Malformed and oversized sources (producers/<name>/malformed*.yaml), one test per variant: what the mock
 * server streams for it (LiteLLM's recorded stream for one it relays), read chunk by chunk by the hub as
 * capture feeds it, gives the sources listed and the console warnings its file predicts (`malformed:`,
 * test-support/fixtures/hardening.json): at most one warning an answer, however many chunks carried the bad
 * data. That the page and the answer stay whole in a browser is tests/e2e/test_malformed.py's, on one
 * variant a delivery mode.
 */

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sentFor } from '../../test-support/core-reads.js';
import { HARDENING } from '../../test-support/hardening.js';
import { MALFORMED_SCENARIOS, type MockServer, startMockServer } from '../../test-support/mock-server.js';
import { createHub } from './hub.js';
import { warnAboutSources } from './source-warnings.js';

let mock: MockServer;
let served: Set<string>;
before(async () => {
  mock = await startMockServer([MALFORMED_SCENARIOS]);
  served = new Set(await mock.models());
});
after(() => mock.stop());

/** The sources the hub lists for a finished answer made of `payloads`, and the console warnings it causes. */
function read(messageId: string, payloads: readonly unknown[]): { listed: number; warnings: string[] } {
  const hub = createHub(() => 'en');
  for (const payload of payloads) hub.add(messageId, 'chat', payload);
  hub.finish(messageId);
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...data: unknown[]) => void warnings.push(data.map(String).join(' '));
  try {
    const state = hub.get(messageId)!;
    // Told of the finished answer more than once (each later packet of it): still one warning.
    for (let told = 0; told < 3; told++) warnAboutSources(hub)(state);
  } finally {
    console.warn = warn;
  }
  return { listed: hub.citations(messageId).citations.length, warnings };
}

for (const [model, expected] of Object.entries(HARDENING.malformed)) {
  test(`${model}: ${expected.listed} sources listed, ${expected.warnings} console warnings`, async () => {
    const sse = await sentFor(mock, served, model, true);
    assert.equal(typeof sse, 'string', `${model}: neither the mock serves it nor LiteLLM's answer is recorded`);
    const streamed = read(`${model}-streamed`, (sse as string).split('\n\n'));
    assert.deepEqual([streamed.listed, streamed.warnings.length], [expected.listed, expected.warnings], 'streamed');
    assert.ok(
      streamed.warnings.every((line) => line.includes(`${model}-streamed`)),
      'each names its answer',
    );
  });
}
