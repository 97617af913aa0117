// Builds the extension: dist/core.mjs (the pure core, ESM, for Node and tests),
// dist/owui-citations.js (the browser bundle Open WebUI loads as /static/loader.js), then
// around that bundle the browser extensions and the userscript (build-webext.mjs).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildWebext } from './build-webext.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
// One version for the bundle, the wheel and the browser extension: the repository's VERSION file.
const version = readFileSync(here('../VERSION'), 'utf8').trim();

// The styles, minified, go into the bundle as one string (ui/styles.ts).
const styles = await build({
  entryPoints: [here('src/ui/styles.css')],
  bundle: true,
  minify: true,
  write: false,
  logLevel: 'warning',
});

const [, bundled] = await Promise.all([
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
    define: { VERSION: JSON.stringify(version), STYLES: JSON.stringify(styles.outputFiles[0].text.trim()) },
    legalComments: 'none',
    // The installer puts a customised loader.js after the bundle: that code must run as written
    // (so "use strict" is this function's, not the file's) and run even if the bundle throws.
    banner: {
      js: `/* owui-citations ${version} (Open WebUI's /static/loader.js) */\n(function () { 'use strict'; try {`,
    },
    footer: { js: "} catch (error) { console.warn('owui-citations: not started', error); } })();" },
    metafile: true,
    logLevel: 'warning',
  }),
]);
// What each source file adds to the bundle: `make bench` accounts for the bundle's size with it.
writeFileSync(here('dist/owui-citations.meta.json'), JSON.stringify(bundled.metafile));

await buildWebext({ version, dist: here('dist'), statics: here('src/webext'), sources: here('src/webext') });
