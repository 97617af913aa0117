/** Links are kept only when they are http(s) or same-origin relative, and of a bounded length. */

import { MAX_URL } from './limits.js';

// The same URLs are checked again and again (each citation, each link of the answer, at every
// pass): parsing is the cost, so results are remembered, within bounds (no huge keys kept).
const checked = new Map<string, string | null>();
const CHECKED_MAX = 1000;
const REMEMBERED_LENGTH = 2048;

export function safeUrl(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > MAX_URL) return null;
  if (raw.length > REMEMBERED_LENGTH) return checkUrl(raw);
  let result = checked.get(raw);
  if (result === undefined) {
    result = checkUrl(raw);
    if (checked.size >= CHECKED_MAX) checked.clear();
    checked.set(raw, result);
  }
  return result;
}

function checkUrl(raw: string): string | null {
  const value = raw.trim();
  if (value === '') return null;
  // Relative to this origin: "/path". What is checked is the path as normalised, since that is
  // what is linked: "/.//evil.com" normalises to "//evil.com", another host (protocol-relative).
  if (value.startsWith('/')) {
    try {
      const url = new URL(value, 'http://same-origin.invalid');
      const path = url.pathname + url.search + url.hash;
      const elsewhere = path.startsWith('//') || path.startsWith('/\\');
      return url.origin === 'http://same-origin.invalid' && !elsewhere ? path : null;
    } catch {
      return null;
    }
  }
  const url = parseWeb(value);
  if (!url) return null;
  // "https://good.com@evil.com/" goes to evil.com: without its userinfo, the link shown is where it goes.
  url.username = '';
  url.password = '';
  return url.href;
}

/** An absolute http(s) URL, parsed; anything else (other schemes parse too: "mailto:…", or any
 * "word: text") is null. The one place that says which schemes are the web's. */
function parseWeb(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** Whether a value is an absolute http(s) URL: a page anywhere, not a path on this site. */
export const isWebUrl = (value: unknown): value is string =>
  typeof value === 'string' && /^https?:\/\//i.test(value.trim()) && safeUrl(value) !== null;

// What a name must not be decoded into: control characters and line breaks (`%0D%0A` would start
// a tag of its own in an exported RIS file) and the marks that reorder text as it is shown (U+202E).
const UNSHOWN = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** Percent-encoded text as it reads, except what must not be decoded, which stays encoded. */
const decode = (text: string): string => {
  try {
    return decodeURIComponent(text).replace(UNSHOWN, encodeURIComponent);
  } catch {
    return text;
  }
};

/** "host/path" of a URL, for a source with no title; the last path part of a relative one. */
export function urlLabel(url: string): string {
  try {
    const parsed = new URL(url, 'http://same-origin.invalid');
    let path = decode(parsed.pathname);
    // Trailing slashes dropped by hand: /\/+$/ tries every slash of a run to its end (quadratic).
    let end = path.length;
    while (end > 0 && path.charCodeAt(end - 1) === 0x2f) end--;
    path = path.slice(0, end);
    if (parsed.origin === 'http://same-origin.invalid') return path.split('/').pop() || path;
    return parsed.host + path;
  } catch {
    return url;
  }
}

/** "example.com" for an http(s) URL, else null. */
export function hostOf(url: string | null): string | null {
  return (url && parseWeb(url)?.host.replace(/^www\./, '')) || null;
}

/** The file name at the end of a path or URL ("reports/2024.pdf" → "2024.pdf"). */
export function fileName(path: string): string {
  return decode(path.split(/[\\/]/).filter(Boolean).pop() ?? path);
}

// What ends a document's file name (lower-cased), past its last dot.
const DOCUMENT_EXTENSIONS = new Set([
  'pdf',
  'doc',
  'docx',
  'odt',
  'rtf',
  'txt',
  'md',
  'markdown',
  'rst',
  'html',
  'htm',
  'csv',
  'tsv',
  'xls',
  'xlsx',
  'ods',
  'ppt',
  'pptx',
  'odp',
  'json',
  'xml',
  'yaml',
  'yml',
  'epub',
]);

/** Whether a text is a file's name: it ends with a document's extension, or it is a path (a
 * slash, no blank). A web address is a path too: callers that want files only check isWebUrl. */
export function isFileName(text: string): boolean {
  const name = text.trim();
  const dot = name.lastIndexOf('.');
  if (dot > 0 && DOCUMENT_EXTENSIONS.has(name.slice(dot + 1).toLowerCase())) return true;
  return (name.includes('/') || name.includes('\\')) && !/\s/.test(name);
}
