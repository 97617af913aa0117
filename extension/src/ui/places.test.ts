import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';
import { citation } from '../../test-support/citation.js';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/' });
const { initPlaces, MARKED, mark, placesOf, sentenceBefore, startSteps } = await import('./places.js');
const { citationButtons, labelCitations } = await import('./citation-labels.js');

/** An answer as the UI leaves it: buttons after the sentences they cite. */
function answer(): HTMLElement {
  const message = document.createElement('div');
  message.id = 'message-a1';
  message.innerHTML =
    '<p>Stars are many. Most are red dwarfs.<button class="owc-cite" data-owc-index="1">1</button> ' +
    'Some are giants<button class="owc-cite" data-owc-index="2">2</button>, like Betelgeuse.' +
    '<button class="owc-cite" data-owc-index="1">1</button></p><p>New line here <button class="owc-cite" data-owc-index="3">3</button></p>';
  document.body.replaceChildren(message);
  return message;
}
const press = (key: string) =>
  document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));

test('a source marks exactly the buttons that cite it, and hovering another moves the marks', () => {
  const message = answer();
  mark(placesOf(message, 1));
  const marked = () => citationButtons(message).map((b) => (b.hasAttribute(MARKED) ? b.dataset.owcIndex : '-'));
  assert.deepEqual(marked(), ['1', '-', '1', '-']);
  mark(placesOf(message, 3));
  assert.deepEqual(marked(), ['-', '-', '-', '3']);
});

test('the sentence a button stands after: back to the full stop and blank before it, within its paragraph', () => {
  const [first, second, third, fourth] = citationButtons(answer());
  assert.equal(sentenceBefore(first!)?.toString(), ' Most are red dwarfs.');
  assert.equal(sentenceBefore(second!)?.toString(), ' Some are giants');
  assert.equal(sentenceBefore(third!)?.toString(), ' Some are giants2, like Betelgeuse.');
  assert.equal(sentenceBefore(fourth!)?.toString(), 'New line here ');
});

test('a sentence is read back a bounded length: a paragraph with no full stop costs no more', () => {
  const message = answer();
  message.querySelector('p')!.prepend('word '.repeat(100_000));
  const range = sentenceBefore(citationButtons(message)[0]!);
  assert.ok(range && range.toString().length <= 2_000 + 30);
});

test('a sentence is read back past a bounded number of nodes: thousands of empty elements cost no more', () => {
  const paragraph = document.createElement('p');
  paragraph.innerHTML = `Far away. ${'<br>'.repeat(5_000)}near text<button class="owc-cite" data-owc-index="1">1</button>`;
  document.body.replaceChildren(paragraph);
  assert.equal(sentenceBefore(paragraph.querySelector('button')!)?.toString(), 'near text');
});

test('← and → move through the answer’s citations; while stepping a source, through its places, and Escape goes back', () => {
  const message = answer();
  const signal = new AbortController();
  initPlaces({} as never, signal.signal);
  const buttons = citationButtons(message);
  buttons[0]!.focus();
  press('ArrowRight');
  assert.equal(document.activeElement, buttons[1]);
  press('End');
  assert.equal(document.activeElement, buttons[3]);
  press('ArrowRight');
  assert.equal(document.activeElement, buttons[3], 'the last stays the last');

  const opener = document.createElement('button');
  document.body.append(opener);
  startSteps(placesOf(message, 1), () => opener);
  assert.equal(document.activeElement, buttons[0]);
  press('ArrowRight');
  assert.equal(document.activeElement, buttons[2], 'the next place of source 1, past source 2');
  assert.ok(buttons[2]!.hasAttribute(MARKED));
  press('Escape');
  assert.equal(document.activeElement, opener);
  assert.equal(message.querySelectorAll(`[${MARKED}]`).length, 0);
  signal.abort();
});

test('each button is named for a screen reader by its place among the answer’s citations', () => {
  const message = answer();
  const byIndex = new Map([1, 2, 3].map((n) => [n, citation(n, { title: `Title ${n}` })]));
  for (const _ of labelCitations(message, byIndex));
  assert.deepEqual(
    citationButtons(message).map((b) => b.getAttribute('aria-label')),
    [
      'Citation 1 of 4: source 1, Title 1',
      'Citation 2 of 4: source 2, Title 2',
      'Citation 3 of 4: source 1, Title 1',
      'Citation 4 of 4: source 3, Title 3',
    ],
  );
});
