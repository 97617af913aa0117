/**
 * Right to left where Open WebUI lays an answer out right to left. It decides per answer, not per
 * language: its "Chat direction" setting is each message's `dir` ("RTL", "LTR", or "auto", where the
 * answer's text decides; unset, the attribute is empty). On an answer as Open WebUI 0.12.4 drew it
 * (test-support/markup), our list inside it follows; the preview and the modal, drawn outside it, are given it.
 */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';
import { citation } from '../../test-support/citation.js';
import { drawnOn, type RecordedAnswer } from '../../test-support/recorded-markup.js';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/' });
const { startFeatures } = await import('./index.js');
const { hidePreview, showPreview } = await import('./preview.js');

// The browser's own rule for `dir`, which happy-dom lacks (its attribute values are any case).
const browserRule = document.createElement('style');
browserRule.textContent = '[dir=RTL], [dir=rtl] { direction: rtl } [dir=LTR], [dir=ltr] { direction: ltr }';
document.head.append(browserRule);

const { answers }: { answers: RecordedAnswer[] } = JSON.parse(
  readFileSync(new URL('../../test-support/markup/open-webui-0.12.4.json', import.meta.url), 'utf8'),
);
const recorded = answers.find((answer) => answer.phase === 'reloaded')!;
const sources = [citation(1, { title: 'مصدر أول', snippet: 'نص المصدر' }), citation(2)];

for (const [chatDirection, expected] of [
  ['RTL', 'rtl'],
  ['LTR', 'ltr'],
  ['', 'ltr'],
] as const) {
  test(`chat direction "${chatDirection}": the list, the preview and the modal lay out ${expected}`, () => {
    // The message's own element carries Open WebUI's dir (ResponseMessage.svelte), recorded unset.
    const html = recorded.html.replace(/^(<div[^>]*?) dir=""/, `$1 dir="${chatDirection}"`);
    assert.notEqual(html === recorded.html, chatDirection !== '', 'the recorded answer has its dir');
    const view = { ...recorded.view, citations: sources, done: true };
    drawnOn({ ...recorded, html, view }, startFeatures, (message) => {
      const list = message.querySelector<HTMLElement>('.owc-sources');
      assert.ok(list, 'the list is drawn');
      assert.equal(getComputedStyle(list).direction, expected);
      const row = list.querySelector<HTMLElement>('button.owc-source')!;

      showPreview(row, sources[0]!);
      assert.equal(document.querySelector('.owc-preview')?.getAttribute('dir'), expected);
      hidePreview();

      row.click();
      const modal = document.querySelector('.owc-backdrop > .owc-modal');
      assert.ok(modal, 'the modal opens');
      assert.equal(modal.parentElement?.getAttribute('dir'), expected);
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    });
  });
}
