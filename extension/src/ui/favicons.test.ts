import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/c/1' });
const { shieldFavicons } = await import('./favicons.js');
const { stripFaviconAddress } = await import('../host/native.js');

/** Our stored source as persist writes it (persist/shape.ts): one document per citation. */
const ours = (...documents: Array<{ source: string; name: string }>) => ({
  source: { id: 'owui-citations', name: 'Citations' },
  document: documents.map(() => 'snippet'),
  metadata: documents.map((d) => ({ ...d, external: true, owc: { title: d.name } })),
});
const isPatched = (): boolean => Object.hasOwn(HTMLImageElement.prototype, 'setAttribute');
/** What an image asks for once the page sets `src` both ways Svelte may. */
function requested(src: string): string[] {
  const image = document.createElement('img');
  image.setAttribute('src', src);
  const byAttribute = image.getAttribute('src')!;
  image.src = src;
  return [byAttribute, image.getAttribute('src')!];
}

test('no image is touched before the extension puts a web source of its own on the page', () => {
  const off = new AbortController();
  const shield = shieldFavicons(off.signal);
  assert.equal(isPatched(), false);
  shield({ source: { id: 'owui-citations' }, document: ['d'], metadata: [{ source: 'doc-1', name: 'Handbook.pdf' }] });
  assert.equal(isPatched(), false, 'a source without a web address asks no icon');
  off.abort();
});

test("once one is, its icon stays on the page and every other icon is Open WebUI's as before", () => {
  const off = new AbortController();
  const shield = shieldFavicons(off.signal);
  shield(ours({ source: 'https://news.example/article?id=7', name: 'Article' }));
  assert.equal(isPatched(), true);
  // Up to 0.11 the strip names a document by its web id; 0.12 by its name, kept by `external`.
  assert.deepEqual(requested(stripFaviconAddress('https://news.example/article?id=7')), [
    '/favicon.png',
    '/favicon.png',
  ]);
  // Open WebUI's own web search: another source, its normal behaviour.
  const theirs = stripFaviconAddress('https://other.example/');
  assert.deepEqual(requested(theirs), [theirs, theirs]);
  assert.deepEqual(requested('/static/logo.png'), ['/static/logo.png', '/static/logo.png']);
  shield(ours({ source: 'doc-2', name: 'https://named.example/page' }));
  assert.deepEqual(requested(stripFaviconAddress('https://named.example/page')), ['/favicon.png', '/favicon.png']);
  off.abort();
  assert.equal(isPatched(), false, 'turned off: the page has its own image setters back');
  const address = stripFaviconAddress('https://news.example/article?id=7');
  assert.deepEqual(requested(address), [address, address]);
});
