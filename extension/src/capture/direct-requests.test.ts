import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createDirectRequests } from './direct-requests.js';

const ask = (question: string) => ({
  model: 'perplexity',
  stream: true,
  messages: [{ role: 'user', content: question }],
});
const body = (question: string) => JSON.stringify({ ...ask(question), model: 'perplexity-without-prefix' });

test('each request is paired with its own answer, whatever the order they are sent in', () => {
  const direct = createDirectRequests();
  direct.announce({ messageId: 'a1', chatId: 'c' }, ask('first'));
  direct.announce({ messageId: 'a2', chatId: 'c' }, ask('second'));
  assert.equal(direct.take(body('second'))?.messageId, 'a2');
  assert.equal(direct.take(body('first'))?.messageId, 'a1');
});

test('a request is taken when sent: when it fails, the next answer is not given its sources', () => {
  const direct = createDirectRequests();
  direct.announce({ messageId: 'failed', chatId: 'c' }, ask('first'));
  assert.equal(direct.take(body('first'))?.messageId, 'failed'); // then the network fails
  direct.announce({ messageId: 'next', chatId: 'c' }, ask('again'));
  assert.equal(direct.take(body('again'))?.messageId, 'next');
  assert.equal(direct.take(body('first')), null);
});

test("a request nobody announced, or not JSON, is nobody's", () => {
  const direct = createDirectRequests();
  direct.announce({ messageId: 'a1', chatId: 'c' }, ask('first'));
  assert.equal(direct.take(body('other')), null);
  assert.equal(direct.take('not json'), null);
  assert.equal(direct.take(body('first'))?.messageId, 'a1');
});
