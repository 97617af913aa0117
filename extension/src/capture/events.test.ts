import assert from 'node:assert/strict';
import { test } from 'node:test';

import { HOSTILE_IDS } from '../test-support/hostile-ids.js';
import { routeEvent } from './events.js';
import { createHub } from './hub.js';

const source = (messageId: string, chatId: string) => ({
  chat_id: chatId,
  message_id: messageId,
  data: {
    type: 'source',
    data: { source: { name: 'S' }, document: ['d'], metadata: [{ source: 'https://a.example/' }] },
  },
});

test('an event whose message id is no id is not read; a chat id that is none names no chat', () => {
  const hub = createHub(() => 'en');
  for (const id of HOSTILE_IDS) {
    routeEvent(hub, source(id, 'c1'), () => {});
    assert.equal(hub.get(id), undefined, id.slice(0, 40));
    routeEvent(hub, source('m1', id), () => {});
    assert.equal(hub.get('m1')?.chatId, null, id.slice(0, 40));
  }
  routeEvent(hub, source('m1', 'c1'), () => {});
  assert.equal(hub.get('m1')?.chatId, 'c1');
});
