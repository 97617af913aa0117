// Builds the extension: dist/core.mjs (the pure core, ESM, for Node and tests) and
// dist/owui-citations.js (the browser bundle Open WebUI loads as /static/loader.js).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const { version } = JSON.parse(readFileSync(here('../package.json'), 'utf8'));

await Promise.all([
  build({
    entryPoints: [here('src/core/index.ts')],
    outfile: here('dist/core.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
  }),
  build({
    entryPoints: [here('src/main.ts')],
    outfile: here('dist/owui-citations.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome110',
    minify: true,
    sourcemap: true,
    define: { VERSION: JSON.stringify(version) },
    legalComments: 'none',
    banner: { js: `/* owui-citations ${version} (Open WebUI's /static/loader.js) */` },
    logLevel: 'warning',
  }),
]);
