import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';
import { citation } from '../../test-support/citation.js';
import type { UiContext } from './context.js';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/' });
const { initModal } = await import('./modal.js');

test('a citation button opens its source, and nothing once the UI is turned off (its signal)', () => {
  const source = citation(1, { title: 'Voie lactée' });
  const ui: UiContext = {
    citationAt: () => ({ citations: [source], citation: source }),
    split: () => ({ cited: [source], retrieved: [] }),
    answer: () => null,
    answerIds: () => [],
    apply: () => undefined,
    applyAll: () => undefined,
  };
  const button = document.createElement('button');
  button.className = 'owc-cite';
  button.dataset.owcIndex = '1';
  document.body.append(button);
  const turnedOff = new AbortController();
  initModal(ui, turnedOff.signal);

  button.click();
  assert.match(document.querySelector('.owc-modal .owc-title')?.textContent ?? '', /Voie lactée/);
  document.querySelector('.owc-modal')?.remove();

  turnedOff.abort();
  button.click();
  assert.equal(document.querySelector('.owc-modal'), null);
});
