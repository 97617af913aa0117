import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { GlobalRegistrator } from '@happy-dom/global-registrator';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/c/1' });
const { PAGE_GLOBALS, patch, patchSetter } = await import('./globals.js');

test('a patch is the page’s until its signal aborts, then the page has its own global back', () => {
  const page = window.fetch;
  const off = new AbortController();
  const calls: string[] = [];
  assert.ok(
    patch<typeof fetch>(
      'fetch',
      (original) => (input, init) => {
        calls.push(String(input));
        return original(input, init);
      },
      off.signal,
    ),
  );
  assert.notEqual(window.fetch, page);
  off.abort();
  assert.equal(window.fetch, page);

  // A method the holder only inherits: restored by removing ours, not by copying the inherited one.
  const images = HTMLImageElement.prototype;
  assert.ok(!Object.hasOwn(images, 'setAttribute'));
  const again = new AbortController();
  patch<Element['setAttribute']>('HTMLImageElement.prototype.setAttribute', (set) => set, again.signal);
  assert.ok(Object.hasOwn(images, 'setAttribute'));
  again.abort();
  assert.ok(!Object.hasOwn(images, 'setAttribute'));
});

test('an aborted signal patches nothing', () => {
  const page = window.WebSocket;
  assert.equal(
    patch<typeof WebSocket>('WebSocket', (Original) => class extends Original {}, AbortSignal.abort()),
    false,
  );
  assert.equal(window.WebSocket, page);
});

test('another script’s later patch is never undone: ours stays in its chain', () => {
  const page = XMLHttpRequest.prototype.open;
  const off = new AbortController();
  patch<XMLHttpRequest['open']>('XMLHttpRequest.prototype.open', (open) => open, off.signal);
  const theirs = function (this: XMLHttpRequest, ...args: unknown[]) {
    return (page as (...a: unknown[]) => void).apply(this, args);
  } as XMLHttpRequest['open'];
  XMLHttpRequest.prototype.open = theirs;
  off.abort();
  assert.equal(XMLHttpRequest.prototype.open, theirs);
  XMLHttpRequest.prototype.open = page;
});

test('a setter patch changes what is set, keeps the page’s getter, and is undone', () => {
  const page = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src')!;
  const off = new AbortController();
  patchSetter(
    'HTMLImageElement.prototype.src',
    (set) =>
      function (this: unknown, value: unknown) {
        set.call(this, String(value).replace('tracker', 'local'));
      },
    off.signal,
  );
  const image = document.createElement('img');
  image.src = 'http://127.0.0.1:8080/tracker.png';
  assert.equal(image.src, 'http://127.0.0.1:8080/local.png');
  off.abort();
  assert.deepEqual(Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src'), page);
  image.src = 'http://127.0.0.1:8080/tracker.png';
  assert.equal(image.src, 'http://127.0.0.1:8080/tracker.png');
});

test('a replaced class still counts every object of the original as its instance', async () => {
  const Original = window.Blob;
  const before = new Original(['made before']);
  const off = new AbortController();
  patch<typeof Blob>('Blob', (Page) => class Blob extends Page {}, off.signal);
  assert.notEqual(window.Blob, Original);
  const others: [string, unknown][] = [
    ['new File([..])', new File(['x'], 'x.txt')],
    ['blob.slice()', new window.Blob(['abc']).slice(1)],
    ["a fetched Response's blob", await new Response('body').blob()],
    ['new Original()', new Original(['y'])],
    ['made before the patch', before],
  ];
  for (const [what, other] of others) assert.ok(other instanceof window.Blob, `${what} instanceof Blob`);
  assert.ok(new window.Blob(['ours']) instanceof Original, 'ours is still one of the original');
  assert.ok(!(({} as unknown) instanceof window.Blob), 'not anything at all');
  off.abort();
  assert.equal(window.Blob, Original);
});

test('the list names every global the extension patches, each one that exists on a page', () => {
  for (const name of Object.keys(PAGE_GLOBALS) as (keyof typeof PAGE_GLOBALS)[]) {
    const path = name.split('.');
    const key = path.pop()!;
    const holder = path.reduce<Record<string, unknown>>(
      (on, part) => on[part] as Record<string, unknown>,
      window as never,
    );
    assert.ok(holder && key in holder, `${name} exists`);
  }
  // Any other module assigning or defining a property of the page's globals bypasses the list
  // (the extension's own `window.owuiCitations`, and the parts' register under its own symbol,
  // parts/loader.ts REGISTER, are no page's). The producers' parsers are bundled too.
  const src = fileURLToPath(new URL('..', import.meta.url));
  const producers = fileURLToPath(new URL('../../../producers', import.meta.url));
  const direct =
    /(?:\b(?:window|globalThis|navigator\.clipboard)|\.prototype)\.(?!owuiCitations\b)\w+\s*=[^=]|defineProperty\(\s*(?:window|globalThis|navigator|\w+\.prototype|images|clipboard)\b(?!,\s*REGISTER\b)/;
  const files = [src, producers].flatMap((root) =>
    (readdirSync(root, { recursive: true }) as string[]).map((file) => [root, file] as const),
  );
  const offenders = files
    .filter(
      ([root, file]) =>
        file.endsWith('.ts') &&
        !file.endsWith('.test.ts') &&
        file !== 'host/globals.ts' &&
        direct.test(readFileSync(`${root}/${file}`, 'utf8')),
    )
    .map(([, file]) => file);
  assert.deepEqual(offenders, []);
});
