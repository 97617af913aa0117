// Where the bundle's functions come from, for the benchmark's profiles: reads [[line, column], …]
// (0-based, as Chrome's profiler gives a function's position) on stdin, writes the matching
// ["capture/fetch.ts:51 createFetchTap", …] from the bundle's source map (Node's own reader).
// The name, read from the source line, keeps a label meaningful after the lines move.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';

const map = new SourceMap(JSON.parse(readFileSync(process.argv[2], 'utf8')));
const { sources, sourcesContent = [] } = map.payload;
// `function name(`, `const name =`, or a method `name(` at the start of the line.
const NAMED = /function\*?\s+([\w$]+)|(?:const|let|var)\s+([\w$]+)\s*=|^\s*(?:async\s+)?([\w$]+)\s*\(/;

/** The name a source line gives the function that starts on it, or ''. */
function nameAt(source, line) {
  const text = sourcesContent[sources.indexOf(source)]?.split('\n')[line] ?? '';
  const match = NAMED.exec(text);
  const name = match?.[1] ?? match?.[2] ?? match?.[3] ?? '';
  return ['if', 'for', 'while', 'switch', 'return', 'catch'].includes(name) ? '' : name;
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
