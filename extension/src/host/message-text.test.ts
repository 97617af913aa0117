import assert from 'node:assert/strict';
import { test } from 'node:test';

import { messageText } from './message-text.js';

const output = [
  {
    type: 'message',
    id: 'msg_1',
    status: 'completed',
    content: [
      { type: 'output_text', text: 'Adults need ' },
      { type: 'output_text', text: '150 minutes [1].' },
    ],
  },
];

test('an answer stored as content (0.6–0.9, 0.11+) or only as output (0.10) gives its text', () => {
  assert.equal(messageText({ content: 'La Voie lactée [1].' }), 'La Voie lactée [1].');
  assert.equal(messageText({ content: '', output }), 'Adults need 150 minutes [1].');
  assert.equal(messageText({ output }), 'Adults need 150 minutes [1].');
});

test('an answer not saved yet has no text', () => {
  assert.equal(messageText({ content: '' }), '');
  assert.equal(messageText({ content: '', output: [] }), '');
  assert.equal(messageText({}), undefined);
  assert.equal(messageText({ output: [{ type: 'reasoning', content: [{ type: 'summary', text: 1 }] }] }), undefined);
});
