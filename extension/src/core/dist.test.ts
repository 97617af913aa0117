/** The built bundle (`npm run build`) is what other code imports: it must work in plain Node. */

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import * as source from './index.js';

const BUNDLE = fileURLToPath(new URL('../../dist/core.mjs', import.meta.url));

test('dist/core.mjs exports the core and gives the same citations', async () => {
  assert.ok(existsSync(BUNDLE), 'run `npm run build` first');
  const bundle = (await import(BUNDLE)) as typeof source;
  const body = {
    choices: [{ message: { content: 'Stars[1][2].' } }],
    search_results: [{ url: 'https://a.example/', title: 'A' }, { url: 'https://b.example/' }],
  };
  const result = bundle.extractCitations(body);
  assert.deepEqual(result, source.extractCitations(body));
  assert.deepEqual(
    bundle.linkMarkers('Stars[1][2].', result.citations).map((s) => s.indices),
    [[1], [2]],
  );
  assert.equal(typeof bundle.createAccumulator().add, 'function');
});
