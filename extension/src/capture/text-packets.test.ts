import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { carriesOnlyText } from './text-packets.js';

/** A socket.io `events` packet as Open WebUI's python-socketio writes it (compact JSON). */
const packet = (data: unknown, type = 'chat:completion'): string =>
  `42${JSON.stringify(['events', { chat_id: 'c1', message_id: 'm1', data: { type, data } }])}`;

const output = (text: string, part: object = {}) => [
  { type: 'message', id: 'msg_1', content: [{ type: 'output_text', text, ...part }] },
];

test('the answer so far, alone in a chat:completion event, is skipped: as content (0.6–0.9) or output (0.10)', () => {
  assert.equal(carriesOnlyText(packet({ content: 'La Voie lactée [1][2].' })), true);
  assert.equal(carriesOnlyText(packet({ content: '' })), true);
  assert.equal(carriesOnlyText(packet({ output: output('Adults need 150 minutes [1].') })), true);
});

test('an answer so far that holds annotations is parsed', () => {
  const annotations = [{ type: 'url_citation', url: 'https://who.example/', start_index: 0, end_index: 5 }];
  assert.equal(carriesOnlyText(packet({ output: output('Adults', { annotations }) })), false);
});

test('the text delta event of 0.12 is skipped, unless it carries an annotation', () => {
  assert.equal(
    carriesOnlyText(packet({ type: 'response.output_text.delta', delta: 'Adults' }, 'response:completion')),
    true,
  );
  assert.equal(
    carriesOnlyText(packet({ type: 'response.output_text.delta', delta: 'x', annotation: {} }, 'response:completion')),
    false,
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
    assert.equal(carriesOnlyText(packet(data)), false, JSON.stringify(data));
  }
  assert.equal(carriesOnlyText(packet({ source: { name: 'a' }, document: ['"}}}]'] }, 'source')), false);
});

test('whatever the text holds, only a text-only event is skipped', () => {
  const text = fc.string({ unit: 'binary' });
  fc.assert(fc.property(text, (content) => carriesOnlyText(packet({ content }))));
  fc.assert(fc.property(text, text, (content, extra) => !carriesOnlyText(packet({ content, extra }))));
  fc.assert(fc.property(text, (content) => !carriesOnlyText(packet({ content, done: true }))));
  fc.assert(
    fc.property(
      text,
      (content) => content.includes('"annotation') || carriesOnlyText(packet({ output: output(content) })),
    ),
  );
});
