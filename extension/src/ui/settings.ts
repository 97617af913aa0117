/**
 * What a user chose for the source lists, kept in this browser (localStorage, our own key) and
 * read again when another tab changes it: how many sources show before "show all", whether the
 * sources retrieved but not cited show, whether Open WebUI's own source strip stays visible.
 */

export interface Settings {
  /** Sources shown before "show all"; 0: all of them. */
  shown: number;
  showRetrieved: boolean;
  keepOpenWebuiStrip: boolean;
}

export const SHOWN_CHOICES = [2, 3, 5, 10, 20, 0] as const;
const DEFAULTS: Settings = { shown: 5, showRetrieved: true, keepOpenWebuiStrip: false };
export const SETTINGS_KEY = 'owc:settings';

let current: Settings | null = null;
let currentKey = '';

/** Stored settings, each value checked: one another version or a hand edit left falls back. */
export function parseSettings(stored: string | null): Settings {
  let values: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(stored ?? '{}');
    if (parsed && typeof parsed === 'object') values = parsed as Record<string, unknown>;
  } catch {
    // not JSON: the defaults
  }
  const pick = <K extends keyof Settings>(key: K, valid: (value: unknown) => boolean): Settings[K] =>
    (Object.hasOwn(values, key) && valid(values[key]) ? values[key] : DEFAULTS[key]) as Settings[K];
  return {
    shown: pick('shown', (v) => (SHOWN_CHOICES as readonly unknown[]).includes(v)),
    showRetrieved: pick('showRetrieved', (v) => typeof v === 'boolean'),
    keepOpenWebuiStrip: pick('keepOpenWebuiStrip', (v) => typeof v === 'boolean'),
  };
}

function read(): Settings {
  try {
    return parseSettings(localStorage.getItem(SETTINGS_KEY));
  } catch {
    return parseSettings(null); // storage blocked
  }
}

function use(chosen: Settings): Settings {
  current = chosen;
  currentKey = JSON.stringify(chosen);
  return chosen;
}

export function settings(): Settings {
  return current ?? use(read());
}

/** The settings as a key: a list drawn under other settings is drawn again. */
export function settingsKey(): string {
  settings(); // read first: the key is the current settings'
  return currentKey;
}

export function saveSettings(changes: Partial<Settings>): void {
  use({ ...settings(), ...changes });
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(current));
  } catch {
    // storage full or blocked: applied to this page only
  }
}

/** Calls `changed` when another tab of this browser changed the settings. */
export function onSettingsChangedElsewhere(changed: () => void, signal: AbortSignal): void {
  window.addEventListener(
    'storage',
    (event) => {
      if (event.key !== SETTINGS_KEY && event.key !== null) return;
      current = null;
      changed();
    },
    { signal },
  );
}
