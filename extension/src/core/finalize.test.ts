import assert from 'node:assert/strict';
import { test } from 'node:test';

import { finalize } from './finalize.js';
import type { Draft } from './model.js';

const draft = (id: string): Draft => ({ id, title: id, url: `https://${id}.example/`, kind: 'web', refs: [] });

test('a source that cannot be read costs that source only, not the others of its payload', () => {
  const unreadable = {
    ...draft('b'),
    get title(): string {
      throw new RangeError('a field no reader expected');
    },
  };
  assert.deepEqual(
    finalize([draft('a'), unreadable, draft('c')], true, 'test', {}).map((c) => [c.index, c.title]),
    [
      [1, 'a'],
      [2, 'c'],
    ],
  );
});
