// Builds the extension: dist/core.mjs (the pure core, ESM, for Node and tests); the browser bundle
// in parts: dist/owui-citations.js, the first part, which Open WebUI loads as /static/loader.js,
// and beside it the parts it loads on first use, dist/owui-citations-parts/<part>.js (src/parts/);
// then around them the browser extensions and the userscript (build-webext.mjs).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildWebext } from './build-webext.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
// One version for the bundle, the wheel and the browser extension: the repository's VERSION file.
const version = readFileSync(here('../VERSION'), 'utf8').trim();
const dist = here('dist');
const root = here('..');

// The styles, minified, go into the bundle as one string (ui/styles.ts).
const styles = await build({
  entryPoints: [here('src/ui/styles.css')],
  bundle: true,
  minify: true,
  write: false,
  logLevel: 'warning',
});

// The parts: what only a click needs, and each language but English (the fallback, in the first part).
const LOCALES = here('src/ui/locales');
const localeCodes = (() => {
  try {
    return readdirSync(LOCALES)
      .filter((name) => /^[A-Za-z-]+\.ts$/.test(name) && name !== 'en.ts')
      .map((name) => name.slice(0, -3))
      .sort();
  } catch {
    return []; // no languages as parts yet
  }
})();
const PARTS = {
  features: here('src/parts/features.ts'),
  // `locale-<code>`, the name parts/languages.ts asks for
  ...Object.fromEntries(localeCodes.map((code) => [`locale-${code}`, `${LOCALES}/${code}.ts`])),
};

// Beside the first part, the directory of the others (parts/loader.ts, partFile), emptied first:
// the installer and the extensions copy what is in it.
const PARTS_DIR = 'owui-citations-parts';
rmSync(`${dist}/${PARTS_DIR}`, { recursive: true, force: true });

const browser = {
  bundle: true,
  platform: 'browser',
  target: 'chrome110',
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  define: {
    VERSION: JSON.stringify(version),
    STYLES: JSON.stringify(styles.outputFiles[0].text.trim()),
    PART_NAMES: JSON.stringify(Object.keys(PARTS)),
  },
};

// A module's id in the first part's table: its path in the repository ("extension/src/ui/dom.ts").
const moduleId = (path) => relative(root, path).replaceAll('\\', '/');
const SHARED_TABLE = here('src/parts/shared.ts');
const INLINE_TABLE = here('src/parts/inline.ts');

/** The namespaces of `modules` by key, as the module that declares the empty table `name`. */
const namespaces = (name, modules) => {
  const entries = Object.entries(modules);
  return {
    loader: 'js',
    contents: [
      ...entries.map(([, path], k) => `import * as m${k} from ${JSON.stringify(path)};`),
      `export const ${name} = { ${entries.map(([key], k) => `${JSON.stringify(key)}: m${k}`).join(', ')} };`,
    ].join('\n'),
  };
};

/** The bindings `shared` ("<path>#<name>", sorted) as the array the empty table SHARED stands for:
 * only what the parts use, so that the first part keeps no more than it would alone. */
const bindings = (shared) => ({
  loader: 'js',
  contents: [
    ...shared.map((key, k) => {
      const [path, name] = key.split('#');
      return `import { ${name} as s${k} } from ${JSON.stringify(path)};`;
    }),
    `export const SHARED = [${shared.map((_, k) => `s${k}`).join(', ')}];`,
  ].join('\n'),
});

/** The first part: `shared` are the bindings of it that parts use (src/parts/shared.ts);
 * `inline`, every part in it too (src/parts/inline.ts), for the userscript. */
function firstPart(shared, { outfile = `${dist}/owui-citations.js`, write = true, inline = false } = {}) {
  return build({
    ...browser,
    entryPoints: [here('src/main.ts')],
    outfile,
    write,
    format: 'iife',
    // The installer puts a customised loader.js after the bundle: that code must run as written
    // (so "use strict" is this function's, not the file's) and run even if the bundle throws.
    banner: {
      js: `/* owui-citations ${version} (Open WebUI's /static/loader.js) */\n(function () { 'use strict'; try {`,
    },
    footer: { js: "} catch (error) { console.warn('owui-citations: not started', error); } })();" },
    plugins: [
      {
        name: 'tables',
        setup(on) {
          on.onLoad({ filter: /[\\/]parts[\\/](shared|inline)\.ts$/ }, (args) => {
            if (args.path === SHARED_TABLE) return bindings(shared);
            if (args.path === INLINE_TABLE && inline) return namespaces('INLINE', PARTS);
            return undefined;
          });
        },
      },
    ],
  });
}

/** The bytes of each source file in an output (types and re-exports only have none). */
const bytesIn = (metafile) =>
  new Map(
    Object.values(metafile.outputs)
      .flatMap((output) => Object.entries(output.inputs ?? {}))
      .filter(([path, used]) => used.bytesInOutput > 0 && !path.includes(':'))
      .map(([path, used]) => [resolve(path), used.bytesInOutput]),
  );

/** Each file's exported names (esbuild's own reading, one file at a time). */
async function exportsOf(files) {
  const { metafile } = await build({
    entryPoints: [...files],
    outdir: `${dist}/.exports`,
    outbase: root,
    write: false,
    bundle: false,
    format: 'esm',
    metafile: true,
    logLevel: 'warning',
  });
  return new Map(
    Object.values(metafile.outputs)
      .filter((output) => output.entryPoint)
      .map((output) => [resolve(output.entryPoint), output.exports]),
  );
}

// A binding read from the first part, in a part: by its key while the build finds which are used,
// by its place in SHARED once it knows (`index`). A pure call: dropped where the part does not use it.
const SHARED_READ = /owcShared\("([^"]+)"\)/g;
const read = (key, index) => `/* @__PURE__ */ owcShared(${index ? index.get(key) : JSON.stringify(key)})`;

/** A part: its own code, and each module that the first part has read from the first part's
 * table (never a copy, whose state would be another one). It registers itself with the first part
 * (parts/loader.ts) when its script runs. */
function part(name, entry, { inFirst, names, index = null }, write = true) {
  return build({
    ...browser,
    entryPoints: [entry],
    outfile: `${dist}/${PARTS_DIR}/${name}.js`,
    write,
    format: 'iife',
    globalName: 'part',
    banner: {
      js: `/* owui-citations ${version} part ${name} */\n(function () { 'use strict'; var define = window[Symbol.for('owui-citations.part')]; if (typeof define === 'function') define(${JSON.stringify(name)}, function (owcShared) {`,
    },
    footer: { js: 'return part; }); })();' },
    plugins: [
      {
        name: 'from-first-part',
        setup(on) {
          on.onResolve({ filter: /^\./ }, async (args) => {
            if (args.pluginData === 'resolving') return undefined;
            const found = await on.resolve(args.path, {
              resolveDir: args.resolveDir,
              kind: args.kind,
              importer: args.importer,
              pluginData: 'resolving',
            });
            if (found.errors.length || !inFirst.has(found.path) || found.path === entry) return undefined;
            return { path: found.path, namespace: 'owc-shared', sideEffects: false };
          });
          on.onLoad({ filter: /.*/, namespace: 'owc-shared' }, (args) => ({
            loader: 'js',
            contents: (names.get(args.path) ?? [])
              .map((name) => `export const ${name} = ${read(`${args.path}#${name}`, index)};`)
              .join('\n'),
          }));
        },
      },
    ],
  });
}

/** The bindings of the first part that the parts read, found by building until they no longer
 * change. A binding the first part did not use takes in the code it needs: where that code is the
 * core's (pure: a copy holds no state of its own), the parts carry their own copy instead. */
async function split() {
  const alone = bytesIn((await firstPart([], { write: false })).metafile);
  const isCore = (path) => moduleId(path).startsWith('extension/src/core/');
  const copied = new Set();
  let shared = [];
  for (let round = 0; round < 8; round++) {
    const first = bytesIn((await firstPart(shared, { write: false })).metafile);
    const grown = [...first].filter(
      ([path, bytes]) => isCore(path) && bytes > (alone.get(path) ?? 0) && !copied.has(path),
    );
    for (const [path] of grown) copied.add(path);
    const inFirst = new Set([...alone.keys()].filter((path) => !copied.has(path)));
    const names = await exportsOf(inFirst);
    const parts = await Promise.all(
      Object.entries(PARTS).map(([name, entry]) => part(name, entry, { inFirst, names }, false)),
    );
    const used = new Set(
      parts.flatMap((built) =>
        built.outputFiles
          .filter((file) => file.path.endsWith('.js'))
          .flatMap((file) => [...file.text.matchAll(SHARED_READ)].map((match) => match[1])),
      ),
    );
    const next = [...used].sort();
    if (!grown.length && next.join() === shared.join())
      return { shared, inFirst, names, index: new Map(shared.map((key, k) => [key, k])) };
    shared = next;
  }
  throw new Error('the bindings the parts share with the first part did not settle');
}

const { shared, ...reads } = await split();
const [, bundled, ...parts] = await Promise.all([
  build({
    entryPoints: [here('src/core/index.ts')],
    outfile: `${dist}/core.mjs`,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
  }),
  firstPart(shared),
  ...Object.entries(PARTS).map(([name, entry]) => part(name, entry, reads)),
]);
// What each source file adds to the first part, and to each other part (by name): `make bench`
// accounts for the bundle's size with them.
writeFileSync(`${dist}/owui-citations.meta.json`, JSON.stringify(bundled.metafile));
writeFileSync(
  `${dist}/${PARTS_DIR}.meta.json`,
  JSON.stringify(Object.fromEntries(Object.keys(PARTS).map((name, k) => [name, parts[k].metafile]))),
);

// The userscript is one file (a userscript manager has no second one to load): the first part
// with every part in it.
const whole = await firstPart([], { write: false, inline: true });

await buildWebext({
  version,
  dist,
  statics: here('src/webext'),
  sources: here('src/webext'),
  parts: PARTS_DIR,
  partNames: Object.keys(PARTS),
  whole: whole.outputFiles.find((file) => file.path.endsWith('.js')).text,
});
