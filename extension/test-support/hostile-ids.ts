/** Ids a crafted chat can hold (keys of `history.messages`, a chat's id), each a way out of a
 * request path: traversal, encoded and full-width dots, backslashes, a query or fragment that
 * swallows the rest of the path, a slash, nothing, 10 KB. */
export const HOSTILE_IDS = [
  '..',
  '.',
  '../../../retrieval/reset/db?',
  '../../auths/api_key#',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fretrieval%2freset%2fdb',
  '..\\..\\retrieval\\reset\\db',
  'a?',
  'a#',
  'a/b',
  '\uFF0E\uFF0E', // full-width dots, which some URL parsers fold to ".."
  '\u2025', // two-dot leader
  '',
  ' ',
  'a\u0000b',
  'x'.repeat(10_000),
];
