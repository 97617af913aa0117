// Where the bundle's functions come from, for the benchmark's profiles: reads [[line, column], …]
// (0-based, as Chrome's profiler gives a function's position) on stdin, writes the matching
// ["capture/fetch.ts:51 createFetchTap", …] from the bundle's source map (Node's own reader).
// The name, read from the source line, keeps a label meaningful after the lines move.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';

const map = new SourceMap(JSON.parse(readFileSync(process.argv[2], 'utf8')));
const { sources, sourcesContent = [] } = map.payload;
// A line that starts a named function: `function name(`, `const name = (` (or `= async`,
// `= function`, `= x =>`), or a method `name(…) {`. A callback passed to a call is left unnamed.
const DECLARED = [
  /function\*?\s+([\w$]+)/,
  /(?:const|let|var)\s+([\w$]+)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:function\b|\(|[\w$]+\s*=>)/,
];
const METHOD = /^\s*(?:async\s+)?([\w$]+)\s*\(/;
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'return', 'catch']);

const linesOf = new Map(); // a profile names hundreds of functions in a few files: split each once

/** The name a source line gives the function that starts on it, or ''. */
function nameAt(source, line) {
  if (!linesOf.has(source)) linesOf.set(source, sourcesContent[sources.indexOf(source)]?.split('\n') ?? []);
  const text = linesOf.get(source)[line] ?? '';
  const declared = DECLARED.map((pattern) => pattern.exec(text)?.[1]).find(Boolean);
  if (declared) return declared;
  const method = text.includes('=>') ? null : METHOD.exec(text)?.[1];
  return method && !KEYWORDS.has(method) ? method : '';
}

const positions = JSON.parse(readFileSync(0, 'utf8'));
const located = positions.map(([line, column]) => {
  const entry = map.findEntry(line, column);
  if (!entry?.originalSource) return '?';
  const name = nameAt(entry.originalSource, entry.originalLine);
  const where = `${entry.originalSource.replace(/^(\.\.\/)*src\//, '')}:${entry.originalLine + 1}`;
  return name ? `${where} ${name}` : where;
});
process.stdout.write(JSON.stringify(located));
