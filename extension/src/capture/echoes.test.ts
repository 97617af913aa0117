import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createEchoFilter } from './echoes.js';

const event = (messageId: string, type: string, data: unknown): string =>
  `42${JSON.stringify(['events', { chat_id: 'c1', message_id: messageId, data: { type, data } }])}`;
const ours = (messageId: string) =>
  event(messageId, 'source', {
    source: { id: 'owui-citations', name: 'Citations' },
    document: ['a'],
    metadata: [{ source: 'https://a.example/', owc: { title: 'A' } }],
  });

test('our stored source reaches the app once per message; a repeat does not', () => {
  const deliver = createEchoFilter();
  assert.equal(deliver(ours('m1')), true);
  assert.equal(deliver(ours('m1')), false);
  assert.equal(deliver(ours('m2')), true);
});

test('everything else reaches the app, repeated or not', () => {
  const deliver = createEchoFilter();
  const native = event('m1', 'source', {
    source: { name: 'https://a.example/' },
    document: ['a'],
    metadata: [{ source: 'https://a.example/' }],
  });
  const text = event('m1', 'chat:completion', { content: 'owc: "owc": [1]' });
  for (const packet of [native, native, text, text, '2', '3probe', 42, null]) assert.equal(deliver(packet), true);
});
