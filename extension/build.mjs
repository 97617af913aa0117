// Builds the extension: dist/core.mjs (the pure core, ESM, for Node and tests).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

await build({
  entryPoints: [here('src/core/index.ts')],
  outfile: here('dist/core.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  sourcemap: true,
  logLevel: 'warning',
});
