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

import { guard } from '../guard.js';
import { patch, patchSetter } from '../host/globals.js';

const FAVICON_SERVICE = /^https?:\/\/www\.google\.com\/s2\/favicons/i;
const LOCAL_ICON = '/favicon.png';

/** Until `signal` aborts (the module turned off). */
export function blockFaviconService(signal: AbortSignal): void {
  // Guarded once, not per call: every image the app shows goes through it.
  const blocked = guard('favicons', (value: unknown) => typeof value === 'string' && FAVICON_SERVICE.test(value));
  const substitute = (value: unknown): unknown => (blocked(value) ? LOCAL_ICON : value);

  patchSetter(
    'HTMLImageElement.prototype.src',
    (set) =>
      function (this: unknown, value: unknown) {
        set.call(this, substitute(value));
      },
    signal,
  );
  // Svelte sets an image's address with setAttribute: an own method of images, over Element's.
  patch<Element['setAttribute']>(
    'HTMLImageElement.prototype.setAttribute',
    (setAttribute) =>
      function setAttributeOfImage(this: HTMLImageElement, name: string, value: string) {
        return setAttribute.call(this, name, String(name).toLowerCase() === 'src' ? String(substitute(value)) : value);
      },
    signal,
  );
}
