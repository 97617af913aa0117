import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';
import type { UiContext } from './context.js';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/c/1' });
const { startLazyFeatures } = await import('./lazy.js');
type LazyFeatures = import('./lazy.js').LazyFeatures;

const ui = {} as UiContext;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A features part that, once started, opens "the modal" on a click of a citation button. */
function fakeFeatures(opened: string[]): LazyFeatures {
  return {
    startFeatures: (_ui, signal) =>
      document.addEventListener(
        'click',
        (event) => {
          const button = (event.target as Element).closest<HTMLElement>('.owc-cite');
          if (button) opened.push(button.dataset.owcIndex ?? '');
        },
        { capture: true, signal },
      ),
  };
}

/** A citation button on the page, and a listener of the page's that sees the clicks Open WebUI would. */
function page() {
  const button = document.createElement('button');
  button.className = 'owc-cite';
  button.dataset.owcIndex = '2';
  document.body.replaceChildren(button);
  const seenByPage: Event[] = [];
  document.body.addEventListener('click', (event) => seenByPage.push(event));
  return { button, seenByPage };
}

const noAnswers = { subscribe: () => () => undefined, view: () => undefined };

/** The features started with `load`, on `answers`: how many loads it was asked for, and what ends them. */
function startWith(load: () => Promise<LazyFeatures>, answers: Parameters<typeof startLazyFeatures>[3] = noAnswers) {
  const off = new AbortController();
  const asked = { loads: 0 };
  startLazyFeatures(
    ui,
    off.signal,
    () => {
      asked.loads++;
      return load();
    },
    answers,
  );
  return { off, asked };
}

/** A part whose load is under way until `arrive` gives it. */
function partOnItsWay() {
  let arrive: (features: LazyFeatures) => void = () => undefined;
  const load = () =>
    new Promise<LazyFeatures>((resolve) => {
      arrive = resolve;
    });
  return { load, arrive: (features: LazyFeatures) => arrive(features) };
}

test('a click before the part is there waits for it, then acts once', async () => {
  const { button, seenByPage } = page();
  const opened: string[] = [];
  const { load, arrive } = partOnItsWay();
  const { off, asked } = startWith(load);
  button.click();
  assert.deepEqual(opened, [], 'nothing yet: the part is on its way');
  assert.equal(seenByPage.length, 0, 'the held click reaches nothing else');
  arrive(fakeFeatures(opened));
  await settle();
  assert.deepEqual(opened, ['2'], 'the modal opens once the part is in');
  button.click();
  assert.deepEqual(opened, ['2', '2']);
  assert.equal(asked.loads, 1);
  off.abort();
});

test('a part that failed to load leaves the click to the page, and the next click tries again', async () => {
  const { button } = page();
  const opened: string[] = [];
  let failing = true;
  const { off, asked } = startWith(async () => {
    if (failing) throw new Error('offline');
    return fakeFeatures(opened);
  });
  button.click();
  await settle();
  assert.deepEqual(opened, []);
  failing = false;
  button.click();
  await settle();
  assert.deepEqual(opened, ['2']);
  assert.equal(asked.loads, 2);
  off.abort();
});

test('the part is fetched when the page is idle after the first answer with sources, not before', async () => {
  page();
  let notify: (state: { messageId: string }) => void = () => undefined;
  const views = new Map<string, { citations: unknown[] }>([
    ['without', { citations: [] }],
    ['with', { citations: [{}] }],
  ]);
  const answers = {
    subscribe: (listener: typeof notify) => {
      notify = listener;
      return () => {
        notify = () => undefined;
      };
    },
    view: (id: string) => views.get(id),
  } as unknown as Parameters<typeof startLazyFeatures>[3];
  const { off, asked } = startWith(async () => fakeFeatures([]), answers);
  notify({ messageId: 'without' });
  await settle();
  assert.equal(asked.loads, 0, 'an answer without sources needs no part');
  notify({ messageId: 'with' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(asked.loads, 1);
  notify({ messageId: 'with' });
  await settle();
  assert.equal(asked.loads, 1);
  off.abort();
});

test('a source row focused before the part is there is told again once it is: its marks show without a second focus', async () => {
  const row = document.createElement('a');
  row.href = '#';
  const list = document.createElement('div');
  list.className = 'owc-sources';
  list.append(row);
  document.body.replaceChildren(list);
  const focusedRows: EventTarget[] = [];
  const features: LazyFeatures = {
    startFeatures: (_ui, signal) =>
      document.addEventListener('focusin', (event) => focusedRows.push(event.target!), { signal }),
  };
  const { load, arrive } = partOnItsWay();
  const { off, asked } = startWith(load);
  row.focus();
  assert.equal(asked.loads, 1, 'the focus fetches the part');
  assert.deepEqual(focusedRows, []);
  arrive(features);
  await settle();
  assert.deepEqual(focusedRows, [row], 'the part sees the focus it came too late for');
  off.abort();
});
