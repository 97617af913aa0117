import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/c/1' });
const { createParts, PART_ANSWER, PART_REQUEST, relayInject, scriptInject } = await import('./loader.js');
type Inject = import('./loader.js').Inject;
type Parts = import('./loader.js').Parts;

/** A delivery that runs a part's script at once: the part registers a factory that reads binding 0. */
function running(parts: () => Parts, calls: string[]): Inject {
  return async (name, file) => {
    calls.push(file);
    parts().register(name, (shared) => ({ name, first: shared(0) }));
  };
}

const quiet = { warn: () => undefined };

test("a part is loaded once, on first use, and reads the first part's bindings", async () => {
  const calls: string[] = [];
  const parts: Parts = createParts({ names: ['features'], inject: running(() => parts, calls), shared: ['el'] });
  assert.equal(parts.loaded('features'), undefined);
  const [a, b] = await Promise.all([parts.load('features'), parts.load('features')]);
  assert.deepEqual(a, { name: 'features', first: 'el' });
  assert.equal(a, b);
  await parts.load('features');
  assert.deepEqual(calls, ['owui-citations-parts/features.js']);
});

test('a failed load warns once and is tried again on the next use', async () => {
  const warnings: string[] = [];
  let failing = true;
  const parts: Parts = createParts({
    names: ['features'],
    inject: async (name) => {
      if (failing) throw new Error('404');
      parts.register(name, () => 'loaded');
    },
    shared: [],
    warn: (text) => warnings.push(text),
  });
  await assert.rejects(parts.load('features'), /404/);
  assert.equal(warnings.length, 1);
  failing = false; // the network is back
  assert.equal(await parts.load('features'), 'loaded');
  assert.equal(warnings.length, 1);
});

test('a script that ran without registering (an error page served for it) is a failed load', async () => {
  const parts = createParts({ names: ['features'], inject: async () => undefined, shared: [], ...quiet });
  await assert.rejects(parts.load('features'), /did not register/);
});

test('a registration no load asked for, or a second one, is ignored: a page script cannot hand us a part', async () => {
  let inject: () => void = () => undefined;
  const parts: Parts = createParts({
    names: ['features'],
    inject: async (name) => {
      inject();
      parts.register(name, () => 'ours');
    },
    shared: ['secret'],
    ...quiet,
  });
  let read: unknown;
  parts.register('features', (shared) => {
    read = shared(0);
    return 'the page';
  });
  assert.equal(read, undefined);
  inject = () => parts.register('features', () => 'the page, racing');
  // The racing registration came while the part was asked for: without a way to tell scripts apart
  // it is taken (the page's own world could run that code anyway); a script element can tell (below).
  assert.equal(await parts.load('features'), 'the page, racing');
  parts.register('features', () => 'again');
  assert.equal(parts.loaded('features'), 'the page, racing');
  await assert.rejects(parts.load('unknown'), /no part unknown/);
});

test('parts already in the first part (the userscript) are never loaded', async () => {
  const parts = createParts({
    names: ['features'],
    inject: async () => assert.fail('nothing to load'),
    shared: [],
    inline: { features: 'inline' },
  });
  assert.equal(parts.loaded('features'), 'inline');
  assert.equal(await parts.load('features'), 'inline');
});

/** Where the loads put their script elements: out of the document, whose scripts this test
 * DOM does not run; each runs (or fails) as the test says. */
const scripts: HTMLScriptElement[] = [];
const collect = (script: HTMLScriptElement) => void scripts.push(script);
const injected = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Parts loaded as loader.js loads them, from a first part at `base`. */
const fromScript = (base: string) =>
  createParts({ names: ['features'], inject: scriptInject(base, collect), shared: [], ...quiet });

/** The script element the last load appended. */
const appended = (): HTMLScriptElement => {
  const script = scripts.at(-1);
  assert.ok(script, 'a script element is appended');
  return script;
};

test("loader.js's parts come from beside it, and only a registration from that script is taken", async () => {
  const inject = scriptInject('http://127.0.0.1:8080/static/loader.js', collect);
  const parts = createParts({ names: ['features'], inject, shared: [], ...quiet });
  const loading = parts.load('features');
  await injected();
  const script = appended();
  assert.equal(script.src, 'http://127.0.0.1:8080/static/owui-citations-parts/features.js');
  parts.register('features', () => 'a page script'); // not the script asked for: document.currentScript is not it
  script.dispatchEvent(new Event('load'));
  await assert.rejects(loading, /did not register/);

  const again = parts.load('features');
  await injected();
  const retry = appended();
  Object.defineProperty(document, 'currentScript', { value: retry, configurable: true });
  parts.register('features', () => 'the part');
  Object.defineProperty(document, 'currentScript', { value: null, configurable: true });
  retry.dispatchEvent(new Event('load'));
  assert.equal(await again, 'the part');
});

test('a part that cannot be fetched (404, network) rejects', async () => {
  const parts = fromScript('/static/loader.js');
  const loading = parts.load('features');
  await injected();
  appended().dispatchEvent(new Event('error'));
  await assert.rejects(loading, /could not be loaded/);
});

test('a first part loaded from another origin loads no part', async () => {
  const parts = fromScript('https://cdn.example.com/loader.js');
  const before = scripts.length;
  await assert.rejects(parts.load('features'), /not loaded from this origin/);
  assert.equal(scripts.length, before, 'no script element');
});

test("the browser extension's relay is asked by name; its answer, or its silence, ends the load", async () => {
  const asked: unknown[] = [];
  const relay = (event: Event) => {
    const name = (event as CustomEvent<unknown>).detail;
    asked.push(name);
    if (name === 'features') parts.register(name, () => 'via the background');
    const answer = name === 'features' ? name : `!${String(name)}`;
    if (name !== 'silent') document.dispatchEvent(new CustomEvent(PART_ANSWER, { detail: answer }));
  };
  document.addEventListener(PART_REQUEST, relay);
  const parts: Parts = createParts({
    names: ['features', 'locale-fr-FR', 'silent'],
    inject: relayInject(50),
    shared: [],
    ...quiet,
  });
  try {
    assert.equal(await parts.load('features'), 'via the background');
    await assert.rejects(parts.load('locale-fr-FR'), /could not run part locale-fr-FR/);
    await assert.rejects(parts.load('silent'), /did not answer/);
    assert.deepEqual(asked, ['features', 'locale-fr-FR', 'silent']);
  } finally {
    document.removeEventListener(PART_REQUEST, relay);
  }
});
