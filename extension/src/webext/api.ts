/// <reference types="chrome" />

/**
 * The extension API: Firefox's `browser` where it exists (promises, the standard), else Chrome's
 * `chrome` (promises too in Manifest V3). Both have the calls used here.
 */
export const api: typeof chrome = (globalThis as { browser?: typeof chrome }).browser ?? chrome;
