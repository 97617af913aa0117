import assert from 'node:assert/strict';
import { test } from 'node:test';

import { tokenFor } from '../../test-support/fake-openwebui.js';
import { userOfToken } from './session.js';

test('a session token names its user; anything else names nobody', () => {
  assert.equal(userOfToken(tokenFor('5f0c7c9e-1b2a-4c3d-8e9f-0a1b2c3d4e5f')), '5f0c7c9e-1b2a-4c3d-8e9f-0a1b2c3d4e5f');
  const claims = (value: unknown) => `h.${Buffer.from(JSON.stringify(value)).toString('base64url')}.s`;
  for (const token of [
    null,
    '',
    'expired',
    'a.b',
    'a.!!!.c',
    claims({ id: '../x' }),
    claims({ id: 1 }),
    claims(null),
  ]) {
    assert.equal(userOfToken(token), null, String(token));
  }
  assert.equal(userOfToken(`${tokenFor('u1')}${'x'.repeat(10_000)}`), null);
});
