/**
 * Loads the parts of the bundle that only a click needs (the modal, export, the settings panel…)
 * and each language but English, on first use, beside the first part that runs before Open WebUI
 * boots. A part is a classic script the build wraps so that, when it runs, it hands the first
 * part a factory (registration, below); the factory gets the first part's bindings that the part
 * uses (parts/shared.ts) and returns the part's exports. How the script gets into the page is the
 * delivery's (`Inject`): a script element beside loader.js, the browser extension's background,
 * or nothing at all in the userscript, which has every part in it (parts/inline.ts).
 *
 * A registration is taken only for a part asked for and not yet there, and only from the script
 * asked for where the delivery can tell (a script element is `document.currentScript` while it
 * runs): a page script cannot hand us code under a part's name. A failed load rejects with one
 * warning, and the next `load` tries again: a transient failure never turns a part off for good.
 */

/** The key of the registration function on `window`; the build's wrapper of a part calls it. */
export const REGISTER = Symbol.for('owui-citations.part');

/** What a part's wrapper hands over: its exports, made with the first part's bindings it uses
 * (read by their place in the first part's table, parts/shared.ts). */
export type PartFactory = (shared: (index: number) => unknown) => unknown;

/**
 * Puts part `name` (its file `file`) into the page; resolves once its script has run (it registered
 * itself then, or did not: `load` tells), rejects when it could not be loaded. `accepts` says whether
 * a registration happening now comes from the script asked for (absent: the delivery cannot tell).
 */
export interface Inject {
  (name: string, file: string): Promise<void>;
  accepts?: () => boolean;
}

export interface Parts {
  /** The part's exports, loaded once; a failed load rejects, and the next call tries again. */
  load(name: string): Promise<unknown>;
  /** The part's exports if it is loaded, without loading it. */
  loaded(name: string): unknown;
  /** What a part's script calls as it runs (through `window[REGISTER]`, exposeRegister). */
  register(name: string, factory: PartFactory): void;
}

declare global {
  interface Window {
    [REGISTER]?: (name: string, factory: PartFactory) => void;
  }
}

/** A part's file, beside the first part's (the build writes it there, build.mjs PARTS_DIR). */
export const partFile = (name: string): string => `owui-citations-parts/${name}.js`;

export function createParts(options: {
  names: readonly string[];
  inject: Inject;
  shared: readonly unknown[];
  /** Parts already in the first part (the userscript's), by name. */
  inline?: Readonly<Record<string, unknown>> | null;
  warn?: (text: string, error: unknown) => void;
}): Parts {
  const { names, inject, shared } = options;
  const warn = options.warn ?? ((text, error) => console.warn(`[owui-citations] ${text}`, error));
  const known = new Set(names);
  const modules = new Map<string, unknown>(Object.entries(options.inline ?? {}));
  const pending = new Map<string, Promise<unknown>>();

  const register = (name: string, factory: PartFactory): void => {
    if (!pending.has(name) || modules.has(name) || typeof factory !== 'function') return;
    if (inject.accepts && !inject.accepts()) return;
    modules.set(
      name,
      factory((index) => shared[index]),
    );
  };
  const load = (name: string): Promise<unknown> => {
    if (modules.has(name)) return Promise.resolve(modules.get(name));
    if (!known.has(name)) return Promise.reject(new Error(`no part ${name}`));
    const waiting = pending.get(name);
    if (waiting) return waiting;
    // Injected once it is pending: a script that runs at once finds it so.
    const promise = Promise.resolve()
      .then(() => inject(name, partFile(name)))
      .then(() => {
        // The script ran: it registered, or it was not the part (an error page, another file).
        if (!modules.has(name)) throw new Error(`${partFile(name)} ran but did not register`);
        return modules.get(name);
      });
    pending.set(name, promise);
    promise.then(
      () => pending.delete(name),
      (error: unknown) => {
        pending.delete(name);
        warn(`${partFile(name)} could not be loaded; tried again on the next use.`, error);
      },
    );
    return promise;
  };

  return { load, loaded: (name) => modules.get(name), register };
}

/** Where a part's script finds the first part: not writable nor configurable, so that a page
 * script cannot put its own in our place. */
export function exposeRegister(parts: Parts): void {
  Object.defineProperty(window, REGISTER, { value: parts.register, enumerable: false });
}

/**
 * Loads a part as a script element from the directory of `base` (the first part's own script
 * URL, read while it ran): beside loader.js, the installer's copy. Same origin only: a first part
 * loaded from elsewhere loads nothing (every part is then refused, Open WebUI works as it would).
 */
export function scriptInject(
  base: string,
  append: (script: HTMLScriptElement) => void = (script) => (document.head ?? document.documentElement).append(script),
): Inject {
  let running: HTMLScriptElement | null = null;
  const sameOrigin = (() => {
    try {
      return new URL(base, location.href).origin === location.origin;
    } catch {
      return false;
    }
  })();
  const inject: Inject = (_name, file) =>
    new Promise<void>((resolve, reject) => {
      if (!sameOrigin) {
        reject(new Error(`the bundle was not loaded from this origin (${base}): no part is loaded`));
        return;
      }
      const script = document.createElement('script');
      script.src = new URL(file, new URL(base, location.href)).href;
      script.async = true;
      const done = (error: Error | null) => {
        if (running === script) running = null;
        script.remove();
        if (error) reject(error);
        else resolve();
      };
      script.addEventListener('load', () => done(null), { once: true });
      script.addEventListener('error', () => done(new Error(`${script.src} could not be loaded`)), { once: true });
      running = script;
      append(script);
    });
  inject.accepts = () => running !== null && document.currentScript === running;
  return inject;
}

/** The events between the first part (the page's world) and the browser extension's relay (its
 * isolated world, webext/relay.ts): a part asked for by name, and the answer, `<name>` or `!<name>`. */
export const PART_REQUEST = 'owui-citations:part-request';
export const PART_ANSWER = 'owui-citations:part-answer';
// The background answers at once; this only ends a wait for a relay that is gone (the extension reloaded).
const RELAY_TIMEOUT_MS = 15_000;

/** Loads a part through the browser extension: its relay asks the background to run the part's
 * file in this frame, in the page's world, and answers whether it did. */
export function relayInject(timeoutMs = RELAY_TIMEOUT_MS): Inject {
  return (name) =>
    new Promise<void>((resolve, reject) => {
      const finish = (error: Error | null) => {
        clearTimeout(timer);
        document.removeEventListener(PART_ANSWER, onAnswer);
        if (error) reject(error);
        else resolve();
      };
      const onAnswer = (event: Event) => {
        const answer = (event as CustomEvent<unknown>).detail;
        if (answer === name) finish(null);
        else if (answer === `!${name}`) finish(new Error(`the extension could not run part ${name}`));
      };
      const timer = setTimeout(() => finish(new Error(`the extension did not answer for part ${name}`)), timeoutMs);
      document.addEventListener(PART_ANSWER, onAnswer);
      document.dispatchEvent(new CustomEvent(PART_REQUEST, { detail: name }));
    });
}
