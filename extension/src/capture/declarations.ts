/**
 * The declared backends that apply in this page: the admin's file, installed beside the bundle
 * (`owui-citations install --backends FILE`) and fetched once at start, and this browser's own, in
 * localStorage (the in-page "Find sources" flow writes them), which win for their models. Each is
 * validated by the core; one that is not valid is not applied at all, with one console warning.
 */

import { backoffMs } from '../backoff.js';
import { DECLARATIONS_KEY, type Declared, declarationsByModel, parseDeclarations } from '../core/index.js';
import { warnOnce } from '../guard.js';
import { ADMIN_DECLARATIONS_PATH } from '../host/routes.js';

export interface Declarations {
  /** The declaration for an Open WebUI model id, if any. */
  forModel(model: string): Declared | undefined;
  /** The declarations without models, this browser's first: the same list until they change. */
  anyModel(): readonly Declared[];
  /** Reads this browser's declarations again (after a page saved one, or another tab did). */
  reload(): void;
  /** Tells `listener` when the declarations changed (the admin's file arrived, the browser's were saved). */
  onChange(listener: () => void): void;
  /** The admin's file, as fetched. */
  setAdmin(text: string): void;
}

/** Valid declarations of one place, or none with one warning naming the place and the errors. */
function checked(text: string | null, place: string): Declared[] {
  if (text === null) return [];
  const { backends, errors } = parseDeclarations(text);
  if (errors.length === 0) return backends;
  warnOnce(`declarations:${place}:${text.length}`, `the declared backends in ${place} are not applied:`, errors);
  return [];
}

function browserText(storage: () => Storage | null): string | null {
  try {
    return storage()?.getItem(DECLARATIONS_KEY) ?? null;
  } catch {
    return null; // storage refused (a sandboxed page, privacy settings): none
  }
}

const anyModelText = (list: readonly Declared[]): string => JSON.stringify(list.map((backend) => backend.json));

export function createDeclarations(storage: () => Storage | null = () => window.localStorage): Declarations {
  let admin: Declared[] = [];
  let browserRaw = browserText(storage);
  let browser = checked(browserRaw, `localStorage["${DECLARATIONS_KEY}"]`);
  const forAnyModel = (): Declared[] => [...browser, ...admin].filter((backend) => backend.models.length === 0);
  let byModel = declarationsByModel(admin, browser);
  let anyModel = forAnyModel();
  const listeners: Array<() => void> = [];
  const changed = (): void => {
    byModel = declarationsByModel(admin, browser);
    const now = forAnyModel();
    // The same list while its declarations say the same: the hub reads every answer again when not.
    if (anyModelText(now) !== anyModelText(anyModel)) anyModel = now;
    listeners.forEach((listener) => listener());
  };
  return {
    forModel: (model) => byModel.get(model),
    anyModel: () => anyModel,
    reload() {
      const raw = browserText(storage);
      if (raw === browserRaw) return;
      browserRaw = raw;
      browser = checked(raw, `localStorage["${DECLARATIONS_KEY}"]`);
      changed();
    },
    onChange: (listener) => void listeners.push(listener),
    setAdmin(text) {
      admin = checked(text, ADMIN_DECLARATIONS_PATH);
      if (admin.length) changed();
    },
  };
}

// Between tries of a transient failure: about a second at first, at most five minutes.
const FIRST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 300_000;
const sleepFor = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Fetches the admin's file, same-origin, with the page's own fetch: none (404, or no Open WebUI
 * serving it: the browser extension on another origin's page) is silent. A transient failure (the
 * network, a 5xx) is one warning and tried again, with backoff, for as long as the page lives; any
 * other is one warning, and the page goes on without the file.
 */
export async function loadAdminDeclarations(
  declarations: Declarations,
  fetch: typeof window.fetch,
  sleep: (ms: number) => Promise<void> = sleepFor,
  random: () => number = Math.random,
): Promise<void> {
  const where = `the declared backends of ${ADMIN_DECLARATIONS_PATH}`;
  for (let failures = 1; ; failures++) {
    let failure: unknown;
    try {
      const response = await fetch(ADMIN_DECLARATIONS_PATH, { credentials: 'same-origin', cache: 'no-cache' });
      // A page served for any path (a proxy's, an app's fallback) is no file either.
      if (response.status === 404 || response.headers.get('content-type')?.includes('text/html')) return;
      if (response.ok) return declarations.setAdmin(await response.text());
      if (response.status < 500)
        return warnOnce('declarations:admin:refused', `${where} could not be read:`, response.status);
      failure = response.status;
    } catch (error) {
      failure = error;
    }
    warnOnce('declarations:admin:retried', `${where} could not be read yet, tried again with backoff:`, failure);
    await sleep(backoffMs(failures, FIRST_WAIT_MS, LONGEST_WAIT_MS, random));
  }
}
