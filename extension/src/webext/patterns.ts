/**
 * The browser extension's pure rules: which pages it runs on (the origins the user granted) and
 * the one content script that puts the bundle there.
 */

/// <reference types="chrome" />

export const SCRIPT_ID = 'owui-citations';
export const BUNDLE = 'owui-citations.js';
export const RELAY_ID = 'owui-citations-relay';
export const RELAY = 'relay.js';

/**
 * The origin match pattern for an address the user typed: `https://chat.example.com/c/1` →
 * `https://chat.example.com/*`. Null unless it is an http(s) URL with a plain host (no `*`:
 * an address, not a wildcard). `keepPort: false` drops the port, for Firefox, whose match
 * patterns have none: there `http://localhost/*` covers every port of the host.
 */
export function originPattern(input: string, keepPort = true): string | null {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  // The URL parser already refuses an http(s) address without a host (`http://`).
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.hostname.includes('*')) return null;
  return `${url.protocol}//${keepPort ? url.host : url.hostname}/*`;
}

// A match pattern's host: `https://chat.example.com/*` → `chat.example.com`.
const HOST = /^[^:/]+:\/\/([^/]*)\//;

/** A grant of many sites: `<all_urls>`, or a host with a `*` (every site, or every subdomain of one). */
function isWildcard(pattern: string): boolean {
  return pattern === '<all_urls>' || (HOST.exec(pattern)?.[1] ?? '').includes('*');
}

const sortedOnce = (patterns: string[]): string[] => [...new Set(patterns)].sort();

/**
 * The granted origins the bundle runs on: http(s) patterns of one host only, each once, sorted.
 * Never a wildcard, whatever the browser granted ("all websites" in its own UI, a subdomain
 * wildcard): the bundle patches the page's fetch and reads its token, so it runs only on the
 * hosts the user named.
 */
export function pagePatterns(origins: readonly string[] | undefined): string[] {
  return sortedOnce((origins ?? []).filter((origin) => /^https?:\/\//.test(origin) && !isWildcard(origin)));
}

/** The granted wildcards, which the bundle never runs on (the options page says so), each once, sorted. */
export function wildcardGrants(origins: readonly string[] | undefined): string[] {
  return sortedOnce((origins ?? []).filter(isWildcard));
}

/** An origin pattern as the options page shows it: `https://chat.example.com/*` → `https://chat.example.com`. */
export function patternLabel(pattern: string): string {
  return pattern.replace(/\/\*$/, '');
}

/**
 * The content scripts for `matches`, in the top frame only, persistent: the bundle, in the page's
 * own world (it patches the page's fetch and WebSocket) at document_start (before Open WebUI's
 * scripts, so that a loader.js the server also installed finds `window.owuiCitations` and stands
 * down); and beside it, in the extension's isolated world, the relay through which the bundle asks
 * the background for a part it loads on first use (relay.ts).
 */
export function contentScripts(matches: string[]): chrome.scripting.RegisteredContentScript[] {
  const common = { matches, runAt: 'document_start', allFrames: false, persistAcrossSessions: true } as const;
  return [
    { id: SCRIPT_ID, js: [BUNDLE], world: 'MAIN', ...common },
    { id: RELAY_ID, js: [RELAY], world: 'ISOLATED', ...common },
  ];
}

export interface SyncSteps {
  register: chrome.scripting.RegisteredContentScript[];
  update: chrome.scripting.RegisteredContentScript[];
  unregister: string[];
}

/** What brings the registered scripts (`registered`: their ids) in line with the granted origins:
 * each registered once then updated, all unregistered when no origin is left. */
export function syncSteps(registered: readonly string[], matches: string[]): SyncSteps {
  if (matches.length === 0) return { register: [], update: [], unregister: [...registered] };
  const scripts = contentScripts(matches);
  return {
    register: scripts.filter((script) => !registered.includes(script.id)),
    update: scripts.filter((script) => registered.includes(script.id)),
    unregister: [],
  };
}

/** A part the bundle asked for (relay.ts), if it is one of the build's (`names`): never a file the page names. */
export function requestedPart(message: unknown, names: readonly string[]): string | null {
  const part = (message as { part?: unknown } | null)?.part;
  return typeof part === 'string' && names.includes(part) ? part : null;
}
