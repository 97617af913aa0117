import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOSTILE_IDS } from '../../test-support/hostile-ids.js';
import { STORED_KEY } from '../core/index.js';
import { RELAY_EVENT, routeEvent } from './events.js';
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

test("the relay filter's chunk is read like a streamed chunk: an upstream's sources Open WebUI skipped", () => {
  const hub = createHub(() => 'en');
  const relayed = (type: string) => ({
    chat_id: 'c1',
    message_id: 'm1',
    data: { type, data: { sources: [source('m1', 'c1').data.data] } },
  });
  routeEvent(hub, relayed('owui-citations:other'), () => {});
  assert.equal(hub.citations('m1').citations.length, 0);
  routeEvent(hub, relayed(RELAY_EVENT), () => {});
  assert.deepEqual(
    hub.citations('m1').citations.map((c) => c.url),
    ['https://a.example/'],
  );
});

test('our stored source broadcast back for an answer already shown is dropped where it arrives', () => {
  const hub = createHub(() => 'en');
  routeEvent(hub, source('m1', 'c1'), () => {});
  let redraws = 0;
  hub.subscribe(() => redraws++);
  const stored = source('m1', 'c1');
  stored.data.data.metadata = [{ source: 'https://a.example/', [STORED_KEY]: { v: 1 } } as { source: string }];
  routeEvent(hub, stored, () => {});
  assert.equal(redraws, 0);
  routeEvent(hub, { ...stored, message_id: 'm2' }, () => {}); // an answer not shown yet: read
  assert.equal(redraws, 1);
});
