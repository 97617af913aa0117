// Where the bundle's functions come from, for the benchmark's profiles: reads [[line, column], …]
// (0-based, as Chrome's profiler gives a function's position) on stdin, writes the matching
// ["capture/fetch.ts:51", …] from the bundle's source map (Node's own reader).
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';

const map = new SourceMap(JSON.parse(readFileSync(process.argv[2], 'utf8')));
const positions = JSON.parse(readFileSync(0, 'utf8'));
const located = positions.map(([line, column]) => {
  const entry = map.findEntry(line, column);
  if (!entry?.originalSource) return '?';
  return `${entry.originalSource.replace(/^(\.\.\/)*src\//, '')}:${entry.originalLine + 1}`;
});
process.stdout.write(JSON.stringify(located));
