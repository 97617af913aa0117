import assert from 'node:assert/strict';
import { test } from 'node:test';

import { eventPayload, pollingPackets, readEnvelope, unreadMessageId } from './socket-protocol.js';

const ID = '0ed4628a-a39c-4895-84d9-82550d3420fc';
const envelope = { chat_id: 'c1', message_id: ID, data: { type: 'source', data: { source: { name: 'S' } } } };

test('an events packet gives its payload, in the default namespace or another; any other packet none', () => {
  assert.deepEqual(eventPayload(`42${JSON.stringify(['events', envelope])}`), envelope);
  assert.deepEqual(eventPayload(`42/ws,${JSON.stringify(['events', envelope])}`), envelope);
  for (const packet of ['2', '3probe', '40{"sid":"x"}', `42${JSON.stringify(['usage', envelope])}`, '42["events",{'])
    assert.equal(eventPayload(packet), undefined, packet);
});

test('an events frame that is no JSON names its message when that is an id, and only then', () => {
  assert.equal(unreadMessageId(`42["events",{"chat_id":"c1","message_id":"${ID}","data":{`), ID);
  assert.equal(unreadMessageId('42["events",{"message_id":"../admin","data":{'), null);
  assert.equal(unreadMessageId(`42["usage",{"message_id":"${ID}"`), null);
  assert.equal(unreadMessageId(`42["events",{"message_id":"${'a'.repeat(200)}"`), null);
});

test("the polling transport's response is split into its packets", () => {
  assert.deepEqual(pollingPackets(`2\x1e42["events",{}]\x1e3`), ['2', '42["events",{}]', '3']);
});

test('an event mirrored for another viewer, or whose data or message id is not one, is about no message', () => {
  assert.deepEqual(readEnvelope(envelope), {
    messageId: ID,
    chatId: 'c1',
    type: 'source',
    record: envelope.data.data,
  });
  assert.equal(readEnvelope({ ...envelope, shared: true }), null);
  assert.equal(readEnvelope({ ...envelope, message_id: 'a/b' }), null);
  assert.equal(readEnvelope({ ...envelope, data: { type: 'source', data: 'text' } }), null);
  assert.equal(readEnvelope({ ...envelope, chat_id: 'local:x' })?.chatId, null);
});
