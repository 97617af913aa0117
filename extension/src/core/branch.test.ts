import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MAX_BRANCH, pathTo, shownBranch } from './branch.js';

/** A stored chat's messages as Open WebUI keeps them: each with its parent, `null` at the top. */
const chat = (...links: [id: string, parent: string | null][]): Record<string, unknown> =>
  Object.fromEntries(
    links.map(([id, parentId]) => [id, { id, parentId, role: id.startsWith('q') ? 'user' : 'assistant' }]),
  );

test('after a regenerate and "<" back, the branch is the first answer, whatever the stored chat opens at', () => {
  const messages = chat(['q1', null], ['a1', 'q1'], ['a1-again', 'q1']);
  assert.deepEqual(shownBranch(messages, ['q1', 'a1'], 'a1-again'), ['q1', 'a1']);
  assert.deepEqual(shownBranch(messages, ['q1', 'a1-again'], 'a1'), ['q1', 'a1-again']);
});

test('an answer regenerated earlier in the chat: the branch on screen carries on below the version shown', () => {
  const messages = chat(['q1', null], ['a1', 'q1'], ['q2', 'a1'], ['a2', 'q2'], ['a1-again', 'q1']);
  assert.deepEqual(shownBranch(messages, ['q1', 'a1', 'q2', 'a2'], 'a1-again'), ['q1', 'a1', 'q2', 'a2']);
});

test('an edited question is a sibling: the first question, its own at the top of the chat, or a later one', () => {
  const first = chat(['q1', null], ['a1', 'q1'], ['q1-edited', null], ['a1-edited', 'q1-edited']);
  assert.deepEqual(shownBranch(first, ['q1', 'a1'], 'a1-edited'), ['q1', 'a1']);
  const later = chat(
    ['q1', null],
    ['a1', 'q1'],
    ['q2', 'a1'],
    ['a2', 'q2'],
    ['q2-edited', 'a1'],
    ['a2-edited', 'q2-edited'],
  );
  assert.deepEqual(shownBranch(later, ['q1', 'a1', 'q2', 'a2'], 'a2-edited'), ['q1', 'a1', 'q2', 'a2']);
});

test('a long chat drawn only in part (Open WebUI loads older messages on scroll): the branch starts at the top', () => {
  const links: [string, string | null][] = [['q0', null]];
  for (let k = 1; k < 40; k++) links.push([`${k % 2 ? 'a' : 'q'}${k}`, links[k - 1]![0]]);
  const messages = chat(...links);
  const branch = shownBranch(
    messages,
    links.slice(-8).map(([id]) => id),
    'q0',
  );
  assert.deepEqual(
    branch,
    links.map(([id]) => id),
  );
});

test('drawn ids the chat does not hold are passed over: the last one it holds ends the branch', () => {
  const messages = chat(['q1', null], ['a1', 'q1'], ['a1-again', 'q1']);
  // An answer being edited draws its text area as `message-edit-<id>` inside it.
  assert.deepEqual(shownBranch(messages, ['q1', 'a1', 'edit-a1'], 'a1-again'), ['q1', 'a1']);
  assert.deepEqual(shownBranch(messages, ['q1', 'a1', 'not-stored-yet'], 'a1-again'), ['q1', 'a1']);
});

test('none of the drawn messages in the chat (another chat drawn, or none): the branch ends at its currentId', () => {
  const messages = chat(['q1', null], ['a1', 'q1'], ['a1-again', 'q1']);
  assert.deepEqual(shownBranch(messages, ['elsewhere'], 'a1-again'), ['q1', 'a1-again']);
  assert.deepEqual(shownBranch(messages, [], 'a1-again'), ['q1', 'a1-again']);
  assert.deepEqual(shownBranch(messages, [], 'missing'), []);
  assert.deepEqual(shownBranch(messages, [], null), []);
});

test("a chat's keys are data: Object's own names, and entries that are no message, end nothing but their own walk", () => {
  const messages = chat(['q1', null], ['a1', 'q1']);
  assert.deepEqual(shownBranch(messages, ['__proto__', 'constructor', 'toString'], 'a1'), ['q1', 'a1']);
  const broken = { q1: null, a1: { parentId: 'q1' }, a2: 'text', b: { parentId: { id: 'a1' } } };
  assert.deepEqual(shownBranch(broken, ['a2'], 'a1'), ['a1']);
  assert.deepEqual(pathTo(broken, 'b'), ['b']);
});

test('parent links that loop or run on end the walk: each message once, at most MAX_BRANCH', () => {
  assert.deepEqual(pathTo(chat(['a', 'b'], ['b', 'a']), 'a'), ['b', 'a']);
  assert.deepEqual(pathTo(chat(['a', 'a']), 'a'), ['a']);
  const links: [string, string | null][] = Array.from({ length: 3 * MAX_BRANCH }, (_, k) => [
    `m${k}`,
    k ? `m${k - 1}` : null,
  ]);
  const branch = pathTo(chat(...links), `m${links.length - 1}`);
  assert.equal(branch.length, MAX_BRANCH);
  assert.equal(branch.at(-1), `m${links.length - 1}`);
});
