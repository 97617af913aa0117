/**
 * "Find sources in this response", as a user meets it: the button on a finished answer without
 * sources, the panel of candidate lists, the choice that saves a declaration for the model, the
 * JSON for the admin, the sources drawn at once; a bad saved declaration told in the panel.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/' });
const { createHub } = await import('../capture/hub.js');
const { createDeclarations } = await import('../capture/declarations.js');
const { DECLARATIONS_KEY } = await import('../core/index.js');
const { startFeatures } = await import('./index.js');
// The features only a click needs, in place (the bundle loads them as a part: parts/features.ts).
const features = await import('../parts/features.js');

/** An answer as Open WebUI 0.12 draws it. */
function drawn(id: string, text: string): HTMLElement {
  const message = document.createElement('div');
  message.id = `message-${id}`;
  message.innerHTML = `<div class="chat-assistant"><div id="response-content-container"><div class="markdown-prose"><p></p></div></div></div>`;
  message.querySelector('p')!.textContent = text;
  document.body.append(message);
  return message;
}

const TEXT = 'Outbound sales grew by 20% [1].';
/** A backend no format reads: its sources under a field of its own, titled two objects down. */
const body = (title: string) => ({
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: TEXT }, finish_reason: 'stop' }],
  retrieved: {
    hits: [
      { record: { name: title, href: 'https://intranet.example/sales-q3' }, body: 'Outbound sales increased 20%.' },
      { record: { name: 'Marketing plan', href: 'https://intranet.example/marketing' }, body: 'Ads campaign.' },
    ],
  },
});

/** A finished answer of `model` on the page, its features started on a hub that reads this
 * browser's declarations again when told, as main.ts wires them. */
function answered(model: string, title = 'Sales report Q3') {
  const declarations = createDeclarations();
  const hub = createHub(() => 'en', declarations);
  const off = new AbortController();
  window.addEventListener('storage', () => declarations.reload(), { signal: off.signal });
  const ui = startFeatures(hub, off.signal, undefined, hub, features);
  hub.asked('a1', model);
  hub.add('a1', 'c1', body(title));
  hub.finish('a1', TEXT);
  const message = drawn('a1', TEXT);
  ui.apply(message);
  return { hub, ui, message, off };
}

const click = (element: Element | null) => {
  assert.ok(element, 'the control is drawn');
  (element as HTMLElement).click();
};
const texts = (root: Element, selector: string) => [...root.querySelectorAll(selector)].map((e) => e.textContent);

test('choosing a list found in the response saves it for the model, keeps the others, shows the JSON and the sources', () => {
  const other = { models: ['other-model'], sources: { text: { heading: 'Sources' } } };
  localStorage.setItem(DECLARATIONS_KEY, JSON.stringify({ backends: [other] }));
  const { ui, message, off } = answered('my-rag', '<img src=x onerror="alert(1)">');
  try {
    assert.equal(message.querySelectorAll('.owc-source').length, 0);
    const button = message.querySelector('.owc-find-sources');
    assert.equal(button?.textContent, 'Find sources in this response');
    click(button);
    const panel = message.querySelector('.owc-find-panel')!;
    assert.deepEqual(texts(panel, '.owc-find-candidate > p'), ['At retrieved.hits · 2 sources']);
    // A producer's title is text, never markup.
    assert.equal(panel.querySelector('img'), null);
    assert.match(
      texts(panel, '.owc-find-candidate li')[0] ?? '',
      /^<img src=x onerror="alert\(1\)"> https:\/\/intranet/,
    );

    click(panel.querySelector('.owc-find-pick'));
    const saved = JSON.parse(localStorage.getItem(DECLARATIONS_KEY)!);
    const entry = {
      models: ['my-rag'],
      sources: { path: 'retrieved.hits' },
      fields: { title: 'record.name', url: 'record.href' },
      numbering: 1,
      markers: 'brackets',
    };
    assert.deepEqual(saved, { backends: [{ ...other, numbering: 1 }, entry] }); // the other, as validated
    const json = panel.querySelector('textarea');
    assert.equal(json?.readOnly, true);
    assert.deepEqual(JSON.parse(json?.value ?? ''), { backends: [entry] });

    ui.apply(message);
    assert.deepEqual(
      [...message.querySelectorAll('.owc-sources .owc-source')].map((e) => (e as HTMLElement).dataset.owcIndex),
      ['1'],
    );
    assert.equal(message.querySelectorAll('.owc-cite').length, 1);
    assert.equal(message.querySelector('.owc-find-sources'), null);
    assert.ok(message.querySelector('.owc-find-panel textarea'), 'the JSON stays to be copied');
  } finally {
    off.abort();
    document.body.replaceChildren();
    localStorage.clear();
  }
});

test('a bad saved declaration is told in the panel, warned once, and breaks no answer', () => {
  localStorage.setItem(DECLARATIONS_KEY, JSON.stringify({ backends: [{ models: 'my-rag', sources: { path: 'x' } }] }));
  const warnings: unknown[] = [];
  const warn = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args);
  const { ui, message, off } = answered('my-rag');
  try {
    for (const _ of [1, 2]) {
      click(message.querySelector('.owc-find-sources')); // open
      assert.match(
        message.querySelector('.owc-find-error')?.textContent ?? '',
        /^The sources declared in this browser are not used, as they are not valid: backends\[0\]/,
      );
      click(message.querySelector('.owc-find-sources')); // close
      ui.apply(message);
    }
    assert.equal(warnings.length, 1);
    assert.equal(message.querySelector('.owc-find-panel'), null);
    assert.ok(message.querySelector('.owc-find-sources'), 'the answer is drawn as before');
  } finally {
    console.warn = warn;
    off.abort();
    document.body.replaceChildren();
    localStorage.clear();
  }
});

test('no button while the answer streams, nor on one with sources', () => {
  const hub = createHub(() => 'en');
  const off = new AbortController();
  const ui = startFeatures(hub, off.signal, undefined, hub, features);
  try {
    hub.asked('s1', 'my-rag');
    hub.add('s1', 'c1', { choices: [{ index: 0, delta: { content: 'Par' } }] });
    const streaming = drawn('s1', 'Par');
    ui.apply(streaming);
    assert.equal(streaming.querySelector('.owc-find-sources'), null);

    hub.asked('w1', 'my-rag');
    const cited = 'Paris [1].';
    const references = [{ title: 'Paris', url: 'https://en.wikipedia.org/wiki/Paris' }];
    hub.add('w1', 'c1', { choices: [{ index: 0, message: { role: 'assistant', content: cited } }], references });
    hub.finish('w1', cited);
    const withSources = drawn('w1', cited);
    ui.apply(withSources);
    assert.ok(withSources.querySelector('.owc-sources'));
    assert.equal(withSources.querySelector('.owc-find-sources'), null);
  } finally {
    off.abort();
    document.body.replaceChildren();
  }
});
