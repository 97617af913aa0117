import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backoffMs } from './backoff.js';

test('each failure doubles the wait, up to the longest, jittered within its upper half', () => {
  const lowest = [1, 2, 3, 4, 5, 6, 40].map((failures) => backoffMs(failures, 1000, 10_000, () => 0));
  const highest = [1, 2, 3, 4, 5, 6, 40].map((failures) => backoffMs(failures, 1000, 10_000, () => 1));
  assert.deepEqual(lowest, [500, 1000, 2000, 4000, 5000, 5000, 5000]);
  assert.deepEqual(highest, [1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
});
