/**
 * Open WebUI's own source strip asks Google's favicon service for the icon of each web source it
 * lists: a request to a third party that tells it what the user reads. When those sources are
 * ours (stored by the extension, and drawn by Open WebUI from there), the extension is the cause:
 * so the icon addresses the strip builds for them, and only those, are replaced by Open WebUI's
 * own fallback icon before the request leaves. Open WebUI's own sources (its web search) keep its
 * normal behaviour, and no image is touched before the first web source of ours reaches the page.
 *
 * Why at the image's `src` and not by watching the DOM: an image starts loading when its
 * address is set, before it is inserted, so an observer would come too late. The change is
 * limited to images (`HTMLImageElement.prototype`, not every element), and is undone when the
 * module is turned off.
 */

import { keepLast } from '../bounded.js';
import { guard } from '../guard.js';
import { patch, patchSetter } from '../host/globals.js';
import { stripFaviconAddress, stripWebNames } from '../host/native.js';

const LOCAL_ICON = '/favicon.png';
// Icon addresses kept: those of the sources seen last, more than a page shows at once.
const MAX_ADDRESSES = 2000;

/** Installs the substitution for `addresses` until `signal` aborts (the module turned off). */
function substituteImages(addresses: ReadonlySet<string>, signal: AbortSignal): void {
  // Guarded once, not per call: every image the app shows goes through it.
  const ours = guard('favicons', (value: unknown) => typeof value === 'string' && addresses.has(value));
  const substitute = (value: unknown): unknown => (ours(value) ? LOCAL_ICON : value);

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

/** What capture calls with each source of ours that reaches the page (Open WebUI's stored form),
 * before the app draws it; the images are patched the first time one has a web name. */
export function shieldFavicons(signal: AbortSignal): (source: unknown) => void {
  const addresses = new Set<string>();
  let installed = false;
  return guard('favicons', (source: unknown) => {
    for (const name of stripWebNames(source)) {
      const address = stripFaviconAddress(name);
      addresses.delete(address); // seen again: kept as the newest
      addresses.add(address);
    }
    keepLast(addresses, MAX_ADDRESSES);
    if (!installed && addresses.size > 0) {
      installed = true;
      substituteImages(addresses, signal);
    }
  });
}
