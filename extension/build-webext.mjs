// Builds, around the browser bundle dist/owui-citations.js and its parts: the Manifest V3 extension
// for Chromium (dist/webext), for Firefox (dist/webext-firefox), test builds of both that are
// granted http://127.0.0.1 at install (dist/webext-test, dist/webext-firefox-test), and a userscript
// (dist/owui-citations.user.js). The extensions run the same bundle and parts, unchanged; the
// userscript is one file, the bundle with every part in it (`whole`).
import { copyFileSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const NAME = 'Open WebUI Citations';
const DESCRIPTION = 'Shows the sources of RAG and search backends as numbered, clickable citations in Open WebUI.';

function manifest(version) {
  // Browsers take a version of one to four numbers only.
  if (!/^\d+(\.\d+){0,3}$/.test(version))
    throw new Error(`VERSION ${version} is no extension version (1 to 4 numbers)`);
  return {
    manifest_version: 3,
    name: NAME,
    version,
    description: DESCRIPTION,
    permissions: ['scripting'],
    // Nothing is granted at install: the user adds each Open WebUI address on the options page.
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    background: { service_worker: 'background.js' },
    options_ui: { page: 'options.html', open_in_tab: true },
    action: { default_title: `${NAME}: choose sites` },
    minimum_chrome_version: '110', // the bundle's esbuild target
  };
}

function firefoxManifest(chromium) {
  const { background, minimum_chrome_version, ...common } = chromium;
  return {
    ...common,
    background: { scripts: [background.service_worker] },
    browser_specific_settings: {
      gecko: {
        id: 'owui-citations@open-webui-citations',
        // scripting.registerContentScripts takes world: "MAIN" from Firefox 128.
        strict_min_version: '128.0',
        data_collection_permissions: { required: ['none'] },
      },
    },
  };
}

// The end-to-end tests cannot click a permission prompt: the test build is granted 127.0.0.1
// (every port) at install, and its background registers the bundle there by itself.
function testManifest(chromium) {
  return { ...chromium, host_permissions: ['http://127.0.0.1/*'] };
}

function userscript(version, bundle) {
  const header = [
    '// ==UserScript==',
    `// @name         ${NAME}`,
    '// @namespace    owui-citations',
    `// @version      ${version}`,
    `// @description  ${DESCRIPTION}`,
    // Open WebUI's usual addresses; add yours under the manager's "User matches".
    '// @match        http://localhost:3000/*',
    '// @match        http://localhost:8080/*',
    '// @match        http://127.0.0.1:8080/*',
    '// @run-at       document-start',
    '// @grant        none',
    // The page's own world: the bundle patches the page's fetch and WebSocket.
    '// @inject-into  page',
    '// @noframes',
    '// ==/UserScript==',
  ];
  // No source map beside a userscript: a dangling sourceMappingURL only makes devtools complain.
  const code = bundle.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  return `${header.join('\n')}\n\n${code}`;
}

const writeJson = (path, value) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

/** Writes the extension directories and the userscript into `dist`; the bundle and its `parts`
 * (a directory of `dist`) must be built. */
export async function buildWebext({ version, dist, statics, sources, parts, partNames, whole }) {
  const chromium = manifest(version);
  const dir = `${dist}/webext`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await build({
    entryPoints: {
      background: `${sources}/background.ts`,
      options: `${sources}/options.ts`,
      relay: `${sources}/relay.ts`,
    },
    outdir: dir,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome110', 'firefox128'],
    define: { PART_NAMES: JSON.stringify(partNames) },
    logLevel: 'warning',
  });
  for (const file of ['owui-citations.js', 'owui-citations.js.map']) copyFileSync(`${dist}/${file}`, `${dir}/${file}`);
  cpSync(`${dist}/${parts}`, `${dir}/${parts}`, { recursive: true });
  for (const file of ['options.html', 'options.css']) copyFileSync(`${statics}/${file}`, `${dir}/${file}`);
  writeJson(`${dir}/manifest.json`, chromium);

  for (const [name, variant] of [
    ['webext-firefox', firefoxManifest(chromium)],
    ['webext-test', testManifest(chromium)],
    ['webext-firefox-test', testManifest(firefoxManifest(chromium))],
  ]) {
    rmSync(`${dist}/${name}`, { recursive: true, force: true });
    cpSync(dir, `${dist}/${name}`, { recursive: true });
    writeJson(`${dist}/${name}/manifest.json`, variant);
  }

  writeFileSync(`${dist}/owui-citations.user.js`, userscript(version, whole));
}
