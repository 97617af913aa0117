import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createAccumulator } from '../core/index.js';
import type { Hub, MessageState } from './hub.js';
import { warnAboutSources } from './source-warnings.js';

/** What the console says for one finished answer whose body is `payload`. */
function linesFor(messageId: string, payload: unknown): string[] {
  const accumulator = createAccumulator();
  accumulator.add(payload);
  const hub = { citations: () => accumulator.result() } as unknown as Hub;
  const lines: string[] = [];
  const info = console.info;
  console.info = (...data: unknown[]) => void lines.push(data.map(String).join(' '));
  try {
    warnAboutSources(hub)({ messageId, done: true } as MessageState);
  } finally {
    console.info = info;
  }
  return lines;
}

test('sources the reader of last resort found: one line with how many and the path it read', () => {
  const chunk = (file: string) => ({
    object: 'context.chunk',
    score: 0.8,
    document: { doc_metadata: { file_name: file } },
    text: 't',
  });
  const payload = {
    choices: [{ index: 0, message: { role: 'assistant', content: 'x' }, sources: [chunk('a.pdf'), chunk('b.pdf')] }],
  };
  assert.deepEqual(linesFor('m-generic', payload), [
    "[owui-citations] 2 sources of message m-generic read from `choices[0].sources`, where no known format has them: please ask for this backend's format.",
  ]);
  // A named format's sources: nothing to ask for.
  const named = {
    choices: [{ index: 0, message: { role: 'assistant', content: 'x' } }],
    citations: ['https://a.example/'],
  };
  assert.deepEqual(linesFor('m-named', named), []);
});
