/**
 * The browser extension's pure rules: which pages it runs on (the origins the user granted) and
 * the one content script that puts the bundle there.
 */

/// <reference types="chrome" />

export const SCRIPT_ID = 'owui-citations';
export const BUNDLE = 'owui-citations.js';

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
 * The content script for `matches`: the page's own world (the bundle patches the page's fetch
 * and WebSocket) at document_start (before Open WebUI's scripts, so a loader.js the server also
 * installed finds `window.owuiCitations` and stands down), top frame only.
 */
export function contentScript(matches: string[]): chrome.scripting.RegisteredContentScript {
  return {
    id: SCRIPT_ID,
    js: [BUNDLE],
    matches,
    runAt: 'document_start',
    world: 'MAIN',
    allFrames: false,
    persistAcrossSessions: true,
  };
}

export type SyncStep =
  | { action: 'register' | 'update'; script: chrome.scripting.RegisteredContentScript }
  | { action: 'unregister' | 'none' };

/** What brings the registered script in line with the granted origins. */
export function syncStep(registered: boolean, matches: string[]): SyncStep {
  if (matches.length === 0) return { action: registered ? 'unregister' : 'none' };
  return { action: registered ? 'update' : 'register', script: contentScript(matches) };
}
