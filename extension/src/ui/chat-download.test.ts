import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';
import { citation } from '../../test-support/citation.js';
import type { UiContext } from './context.js';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/c/1' });
const { initChatDownload } = await import('./chat-download.js');
const { markdownOf } = await import('./copy.js');
const { withSourcesAfterAnswers: rewrite } = await import('../core/index.js');
const withSourcesAfterAnswers = (file: string, answers: Parameters<typeof rewrite>[1]) =>
  rewrite(file, answers, markdownOf);

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

test('the sources follow the answer, not a question that starts with a pasted copy of it', () => {
  const file = chat(['USER', '### ASSISTANT\nWalk them [1].'], ['ASSISTANT', 'Walk them [1].']);
  assert.equal(
    withSourcesAfterAnswers(file, [{ text: 'Walk them [1].', citations: one }]),
    `${file}\n\n**Sources**\n\n- [1] [Dog care](https://a.example/dogs)`,
  );
});

test('an answer with blanks around its text, and one written twice, get their sources once', () => {
  const file = chat(['ASSISTANT', '\n Walk them [1].\n\n'], ['USER', 'Again?'], ['ASSISTANT', 'Walk them [1].']);
  const out = withSourcesAfterAnswers(file, [{ text: 'Walk them [1].  ', citations: one }]);
  assert.equal(out.split('**Sources**').length, 2);
  assert.ok(out.startsWith('### ASSISTANT\n\n Walk them [1].\n\n**Sources**'), out);
});

/** Open WebUI's chat menu, with its "Download" submenu: the items as 0.12 draws them (buttons),
 * or as the older lines do (bits-ui items, `role="menuitem"`), labels translated. */
function openWebuiMenu(): { plainText: HTMLElement; json: HTMLElement; menuItem: HTMLElement } {
  document.body.innerHTML = `
    <div role="menu">
      <button><div class="flex items-center">Download</div></button>
      <button><div class="flex items-center line-clamp-1">Export chat (.json)</div></button>
      <button id="txt"><div class="flex items-center line-clamp-1">Plain text (.txt)</div></button>
      <div role="menuitem" id="item"><div class="flex items-center line-clamp-1"> Klartext (.txt) </div></div>
    </div>`;
  return {
    plainText: document.querySelector<HTMLElement>('#txt > div')!,
    json: document.querySelectorAll<HTMLElement>('button')[1]!,
    menuItem: document.querySelector<HTMLElement>('#item')!,
  };
}

function started() {
  const ui = {
    answerIds: () => ['a1'],
    answer: () => ({ question: null, text: 'Walk them [1].', citations: one }),
    split: () => ({ cited: one, retrieved: [] }),
  } as unknown as UiContext;
  const turnedOff = new AbortController();
  initChatDownload(ui, turnedOff.signal);
  return turnedOff;
}

const file = chat(['USER', 'Dogs?'], ['ASSISTANT', 'Walk them [1].']);
const withSources = /Walk them \[1\]\.\n\n\*\*Sources\*\*\n\n- \[1\] \[Dog care\]/;

test('only a click on "Download → Plain text" arms the hook; a click elsewhere leaves the page’s Blob', async () => {
  const Page = window.Blob;
  const turnedOff = started();
  const menu = openWebuiMenu();
  for (const elsewhere of [document.body, menu.json]) {
    elsewhere.click();
    assert.equal(window.Blob, Page, 'not armed');
    assert.equal(await new Blob([file], { type: 'text/plain' }).text(), file);
  }
  menu.plainText.click();
  assert.notEqual(window.Blob, Page, 'armed');
  assert.equal(await new Blob([file], { type: 'text/markdown' }).text(), file, 'another kind of file');
  assert.equal(await new Blob(['Walk them [1].'], { type: 'text/plain' }).text(), 'Walk them [1].');
  const made = new Blob([file], { type: 'text/plain' });
  assert.ok(made instanceof Page);
  assert.match(await made.text(), withSources);
  assert.equal(window.Blob, Page, 'disarmed by its Blob');
  assert.equal(await new Blob([file], { type: 'text/plain' }).text(), file, 'one Blob per click');

  menu.menuItem.click(); // the older lines' item, in another language
  assert.match(await new Blob([file], { type: 'text/plain' }).text(), withSources);
  turnedOff.abort();
});

test('while armed, a File, a sliced and a fetched Blob stay instanceof Blob; turned off, the page’s Blob', async () => {
  const Page = window.Blob;
  const turnedOff = started();
  openWebuiMenu().plainText.click();
  assert.notEqual(window.Blob, Page);
  assert.ok(new File(['x'], 'x.txt') instanceof Blob);
  assert.ok(new Page(['abc']).slice(1) instanceof Blob);
  assert.ok((await new Response('x').blob()) instanceof Blob);
  turnedOff.abort();
  assert.equal(window.Blob, Page);
});

test('armed and no chat made into a Blob: the page has its own Blob back after ten seconds', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const Page = window.Blob;
  const turnedOff = started();
  openWebuiMenu().plainText.click();
  t.mock.timers.tick(9_999);
  assert.notEqual(window.Blob, Page);
  t.mock.timers.tick(1);
  assert.equal(window.Blob, Page);
  turnedOff.abort();
});
