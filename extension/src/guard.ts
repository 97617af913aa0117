/**
 * Every hook into Open WebUI runs through `guard`: an exception degrades to Open WebUI's own
 * behaviour and is reported with one console warning per module, never thrown into the app.
 * `localStorage['owc:fault'] = '<module>'` makes that module throw, to prove it (tests).
 */

const warned = new Set<string>();

export function warnOnce(module: string, error: unknown): void {
  if (warned.has(module)) return;
  warned.add(module);
  console.warn(`[owui-citations] ${module} disabled after an error; Open WebUI keeps working without it.`, error);
}

function faultInjected(module: string): boolean {
  try {
    return localStorage.getItem('owc:fault') === module;
  } catch {
    return false;
  }
}

export function guard<A extends unknown[], R>(module: string, fn: (...args: A) => R): (...args: A) => R | undefined {
  return (...args: A) => {
    try {
      if (faultInjected(module)) throw new Error(`fault injected in ${module}`);
      return fn(...args);
    } catch (error) {
      warnOnce(module, error);
      return undefined;
    }
  };
}
