/**
 * Every hook into Open WebUI runs through `guard`: the first exception of a module turns that
 * module off, with one console warning, and runs what it registered to give Open WebUI its own
 * view back; the exception never reaches the app. A module's state after an unexpected error
 * cannot be trusted, so it stops rather than half-works.
 * `localStorage['owc:fault'] = '<module>'` makes that module throw, to prove it (tests).
 */

import { keepLast } from './bounded.js';

const warned = new Set<string>();
const disabled = new Set<string>();
const restorers = new Map<string, Array<() => void>>();

/** Logs `text` the first time `key` is seen: once per failed module, once per unreadable message. */
export function warnOnce(key: string, text: string, detail?: unknown): void {
  logOnce(console.warn, key, text, detail);
}

/** A line for a backend's author, not a problem of the page: logged once, as information. */
export function noteOnce(key: string, text: string): void {
  logOnce(console.info, key, text);
}

function logOnce(log: (...data: unknown[]) => void, key: string, text: string, detail?: unknown): void {
  if (warned.has(key)) return;
  warned.add(key);
  keepLast(warned, 1000);
  log(`[owui-citations] ${text}`, ...(detail === undefined ? [] : [detail]));
}

/** What gives Open WebUI back what `module` changed (a global it patched, say), run when the
 * module is turned off; a module may register several. */
export function onDisable(module: string, restore: () => void): void {
  restorers.set(module, [...(restorers.get(module) ?? []), restore]);
}

const turnedOff = new Map<string, AbortSignal>();

/** Aborts when `module` is turned off: the globals it patched are given back on it (host/globals.ts). */
export function offSignal(module: string): AbortSignal {
  let signal = turnedOff.get(module);
  if (!signal) {
    const controller = new AbortController();
    signal = controller.signal;
    turnedOff.set(module, signal);
    onDisable(module, () => controller.abort());
  }
  return signal;
}

/** Turns `module` off after an error, with one warning, and gives Open WebUI back its own view. */
export function fail(module: string, error: unknown): void {
  disabled.add(module);
  warnOnce(`module:${module}`, `${module} disabled after an error; Open WebUI keeps working without it.`, error);
  for (const restore of restorers.get(module) ?? []) {
    try {
      restore();
    } catch {
      // Restoring is best effort; the module stays off either way.
    }
  }
}

let fault: string | null | undefined;

/** The switch is read once, at the first guarded call: reading localStorage at every call (every
 * socket frame) was the extension's largest cost while an answer streams. It is read again when
 * another tab changes it, which breaks a module in the middle of a session. */
function faultInjected(module: string): boolean {
  if (fault === undefined) {
    try {
      fault = localStorage.getItem('owc:fault');
    } catch {
      fault = null;
    }
  }
  return fault === module;
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === 'owc:fault' || event.key === null) fault = undefined;
  });
}

export function guard<A extends unknown[], R>(module: string, fn: (...args: A) => R): (...args: A) => R | undefined {
  return (...args: A) => {
    if (disabled.has(module)) return undefined;
    try {
      if (faultInjected(module)) throw new Error(`fault injected in ${module}`);
      return fn(...args);
    } catch (error) {
      fail(module, error);
      return undefined;
    }
  };
}

/** The steps of a long piece of work (a generator), each run through `guard`: an error ends it. */
export function guardSteps(module: string, steps: Iterator<unknown>): Iterator<unknown> {
  const step = guard(module, () => steps.next());
  return { next: () => step() ?? { done: true, value: undefined } };
}
