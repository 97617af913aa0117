import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { textPacketKind } from './text-packets.js';

/** A socket.io `events` packet as Open WebUI's python-socketio writes it (compact JSON). */
const packet = (data: unknown, type = 'chat:completion'): string =>
  `42${JSON.stringify(['events', { chat_id: 'c1', message_id: 'm1', data: { type, data } }])}`;

const output = (text: string, part: object = {}) => [
  { type: 'message', id: 'msg_1', content: [{ type: 'output_text', text, ...part }] },
];

test('the answer so far, alone in a chat:completion event, is skipped: as content (0.6–0.9) or output (0.10)', () => {
  assert.equal(textPacketKind(packet({ content: 'La Voie lactée [1][2].' })), 'so-far');
  assert.equal(textPacketKind(packet({ content: '' })), 'so-far');
  assert.equal(textPacketKind(packet({ output: output('Adults need 150 minutes [1].') })), 'so-far');
});

test('an answer so far that holds annotations is parsed', () => {
  const annotations = [{ type: 'url_citation', url: 'https://who.example/', start_index: 0, end_index: 5 }];
  assert.equal(textPacketKind(packet({ output: output('Adults', { annotations }) })), null);
});

test('the text delta event of 0.12 is skipped, unless it carries an annotation', () => {
  assert.equal(
    textPacketKind(packet({ type: 'response.output_text.delta', delta: 'Adults' }, 'response:completion')),
    'delta',
  );
  assert.equal(
    textPacketKind(packet({ type: 'response.output_text.delta', delta: 'x', annotation: {} }, 'response:completion')),
    null,
  );
});

test('any text with a field beside it is parsed: sources, the finish, raw chunks', () => {
  for (const data of [
    { content: 'x', sources: [{ source: { name: 'a' } }] },
    { content: 'x', done: true },
    { done: true, output: output('x'), title: 'x' },
    { done: true, content: 'x' },
    { sources: [], content: 'x' },
    { id: 'chatcmpl-1', citations: ['https://a.example/'], choices: [{ delta: { content: 'x' } }] },
    { usage: { total_tokens: 3 } },
  ]) {
    assert.equal(textPacketKind(packet(data)), null, JSON.stringify(data));
  }
  assert.equal(textPacketKind(packet({ source: { name: 'a' }, document: ['"}}}]'] }, 'source')), null);
});

test('whatever the text holds, only a text-only event is skipped', () => {
  const text = fc.string({ unit: 'binary' });
  fc.assert(fc.property(text, (content) => textPacketKind(packet({ content })) === 'so-far'));
  fc.assert(fc.property(text, text, (content, extra) => textPacketKind(packet({ content, extra })) === null));
  fc.assert(fc.property(text, (content) => textPacketKind(packet({ content, done: true })) === null));
  fc.assert(
    fc.property(
      text,
      (content) => content.includes('"annotation') || textPacketKind(packet({ output: output(content) })) === 'so-far',
    ),
  );
});
