import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';
import { citation } from '../../test-support/citation.js';
import type { UiContext } from './context.js';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/c/1' });
const { initChatDownload, withSourcesAfterAnswers } = await import('./chat-download.js');

const one = [citation(1, { title: 'Dog care', url: 'https://a.example/dogs' })];
const two = [citation(1, { title: 'Cat care', url: 'https://b.example/cats' })];
// Open WebUI's text of a chat: `### ROLE\n<text>` per message, blank lines between, trimmed.
const chat = (...messages: [string, string][]) =>
  messages
    .map(([role, text]) => `### ${role}\n${text}\n\n`)
    .join('')
    .trim();

test('each answer’s cited sources follow it in Open WebUI’s text download', () => {
  const file = chat(
    ['USER', 'Dogs?'],
    ['ASSISTANT', 'Walk them [1].'],
    ['USER', 'Cats?'],
    ['ASSISTANT', 'Feed them [1].\n'],
  );
  const out = withSourcesAfterAnswers(file, [
    { text: 'Walk them [1].', citations: one },
    { text: 'Feed them [1].\n', citations: two },
  ]);
  assert.equal(
    out,
    '### USER\nDogs?\n\n### ASSISTANT\nWalk them [1].\n\n**Sources**\n\n- [1] [Dog care](https://a.example/dogs)' +
      '\n\n### USER\nCats?\n\n### ASSISTANT\nFeed them [1].\n\n**Sources**\n\n- [1] [Cat care](https://b.example/cats)',
  );
});

test('an answer is matched as a whole message: not the start of a longer one, not an unknown one', () => {
  const file = chat(['ASSISTANT', 'Yes, and more [1].'], ['ASSISTANT', 'Yes']);
  const out = withSourcesAfterAnswers(file, [{ text: 'Yes', citations: one }]);
  assert.equal(out, `${file}\n\n**Sources**\n\n- [1] [Dog care](https://a.example/dogs)`);
  assert.equal(withSourcesAfterAnswers(file, [{ text: 'Never said', citations: one }]), file);
});

test('only the Blob Open WebUI makes of a chat, after a click, gets the sources; undone when turned off', async () => {
  const ui = {
    answerIds: () => ['a1'],
    answer: () => ({ question: null, text: 'Walk them [1].', citations: one }),
    split: () => ({ cited: one, retrieved: [] }),
  } as unknown as UiContext;
  const turnedOff = new AbortController();
  const Before = window.Blob;
  initChatDownload(ui, turnedOff.signal);
  const file = chat(['USER', 'Dogs?'], ['ASSISTANT', 'Walk them [1].']);
  assert.equal(await new Blob([file], { type: 'text/plain' }).text(), file, 'no click: as made');
  document.body.click();
  const made = new Blob([file], { type: 'text/plain' });
  assert.ok(made instanceof Before);
  assert.match(await made.text(), /Walk them \[1\]\.\n\n\*\*Sources\*\*\n\n- \[1\] \[Dog care\]/);
  assert.equal(await new Blob([file], { type: 'text/markdown' }).text(), file, 'another kind of file');
  assert.equal(await new Blob(['Walk them [1].'], { type: 'text/plain' }).text(), 'Walk them [1].');
  turnedOff.abort();
  assert.equal(window.Blob, Before);
});
