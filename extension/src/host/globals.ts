/**
 * Every global of the page the extension replaces, and the one way it does so. Open WebUI, its
 * libraries and any other script on the page share these objects: a patch is installed here,
 * restored here when its signal aborts (the module turned off, a download disarmed) and only
 * while the global is still ours, so a later script's own patch is never undone. A replaced class
 * answers `instanceof` for every object of the original class, not only those it made.
 */

/** Each global patched, by its path from the page's `window`, and what the patch is for. */
export const PAGE_GLOBALS = {
  WebSocket: 'capture/socket.ts: reads the socket.io packets of a WebSocket as they arrive',
  'XMLHttpRequest.prototype.open': "capture/socket.ts: reads socket.io's long-polling responses",
  fetch: "capture/fetch.ts: reads copies of a stored chat and of a direct connection's answer",
  'HTMLImageElement.prototype.src': "ui/favicons.ts: an image never asks Google's favicon service",
  'HTMLImageElement.prototype.setAttribute': "ui/favicons.ts: the same, for Svelte's way of setting it",
  Blob: 'ui/chat-download.ts: "Download → Plain text" keeps the sources; only from a click on it to its file',
  'navigator.clipboard.writeText': "ui/copy.ts: Open WebUI's copy button copies the cited sources too",
  'navigator.clipboard.write': 'ui/copy.ts: the same, for a formatted copy',
} as const;

export type PageGlobal = keyof typeof PAGE_GLOBALS;

/** The object holding `name`'s last part, and that part; null when the page has no such object
 * (no `navigator.clipboard` outside a secure context). */
function locate(name: PageGlobal): { holder: object; key: string } | null {
  const path = name.split('.');
  const key = path.pop()!;
  let holder: unknown = window; // the page's, as its scripts see it
  for (const part of path) holder = (holder as Record<string, unknown> | null | undefined)?.[part];
  return (typeof holder === 'object' || typeof holder === 'function') && holder !== null ? { holder, key } : null;
}

/** The property as the page sees it: the holder's own, or the one it inherits. */
function descriptorOf(holder: object, key: string): PropertyDescriptor | undefined {
  for (let on: object | null = holder; on; on = Object.getPrototypeOf(on)) {
    const descriptor = Object.getOwnPropertyDescriptor(on, key);
    if (descriptor) return descriptor;
  }
  return undefined;
}

const same = (a: PropertyDescriptor | undefined, b: PropertyDescriptor): boolean =>
  !!a && a.value === b.value && a.get === b.get && a.set === b.set;

/** Defines `ours` on the holder until `signal` aborts; then the holder's own property as it was
 * (none: the inherited one shows again), unless another script replaced ours meanwhile. */
function install(
  name: PageGlobal,
  ours: (before: PropertyDescriptor) => PropertyDescriptor,
  signal: AbortSignal,
): boolean {
  const where = locate(name);
  const seen = where && descriptorOf(where.holder, where.key);
  if (!where || !seen || signal.aborted) return false;
  const { holder, key } = where;
  const own = Object.getOwnPropertyDescriptor(holder, key);
  const installed = ours(seen);
  Object.defineProperty(holder, key, installed);
  signal.addEventListener(
    'abort',
    () => {
      try {
        if (!same(Object.getOwnPropertyDescriptor(holder, key), installed)) return;
        if (own) Object.defineProperty(holder, key, own);
        else delete (holder as Record<string, unknown>)[key];
      } catch {
        // Restoring is best effort: a frozen holder keeps ours, which passes everything through.
      }
    },
    { once: true },
  );
  return true;
}

/** A replaced class (a subclass of the original) answers `instanceof` as the original does: a
 * File, a sliced or fetched Blob, a socket opened before us are still instances. */
function keepInstanceof(original: unknown, replacement: unknown): void {
  if (typeof original !== 'function' || typeof replacement !== 'function' || original === replacement) return;
  const base = (original as { prototype?: unknown }).prototype;
  const made = (replacement as { prototype?: unknown }).prototype;
  if (typeof base !== 'object' || base === null || !Object.prototype.isPrototypeOf.call(base, made as object)) return;
  Object.defineProperty(replacement, Symbol.hasInstance, {
    value: (value: unknown) => value instanceof (original as new (...args: never[]) => unknown),
    configurable: true,
  });
}

/**
 * Replaces the value of `name` (a class, a function, a method) by `replace(original)` until
 * `signal` aborts. Returns whether it was installed (not when the page has no such global, or the
 * signal has already aborted).
 */
export function patch<T>(name: PageGlobal, replace: (original: T) => T, signal: AbortSignal): boolean {
  return install(
    name,
    (before) => {
      const original = before.value as T;
      const replacement = replace(original);
      keepInstanceof(original, replacement);
      return { value: replacement, writable: true, configurable: true, enumerable: before.enumerable ?? true };
    },
    signal,
  );
}

type Setter = (this: unknown, value: unknown) => void;

/** Replaces the setter of the accessor `name` (an image's `src`) by `replace(original)` until
 * `signal` aborts; its getter stays the page's. */
export function patchSetter(name: PageGlobal, replace: (original: Setter) => Setter, signal: AbortSignal): boolean {
  return install(
    name,
    (before) => {
      if (!before.set) throw new Error(`${name} has no setter`);
      return { ...before, configurable: true, set: replace(before.set) };
    },
    signal,
  );
}
