/**
 * Open WebUI's own source strip asks Google's favicon service for the domain of every cited
 * web page: a request to a third party that tells it what the user reads. Those image
 * addresses are replaced by Open WebUI's own fallback icon before the request leaves.
 */

const FAVICON_SERVICE = /^https?:\/\/www\.google\.com\/s2\/favicons/i;
const LOCAL_ICON = '/favicon.png';

export function blockFaviconService(): void {
  const descriptor = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src');
  if (descriptor?.set) {
    const set = descriptor.set;
    Object.defineProperty(HTMLImageElement.prototype, 'src', {
      ...descriptor,
      set(this: HTMLImageElement, value: string) {
        set.call(this, FAVICON_SERVICE.test(String(value)) ? LOCAL_ICON : value);
      },
    });
  }
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (this: Element, name: string, value: string) {
    const blocked = this instanceof HTMLImageElement && name.toLowerCase() === 'src' && FAVICON_SERVICE.test(String(value));
    return setAttribute.call(this, name, blocked ? LOCAL_ICON : value);
  };
}
