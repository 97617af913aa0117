import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  contentScripts,
  originPattern,
  pagePatterns,
  patternLabel,
  RELAY_ID,
  requestedPart,
  SCRIPT_ID,
  syncSteps,
  wildcardGrants,
} from './patterns.js';

test('an address becomes its origin pattern: path, query and fragment dropped, port kept', () => {
  assert.equal(originPattern('https://chat.example.com'), 'https://chat.example.com/*');
  assert.equal(originPattern('  https://Chat.Example.com/c/123?x=1#top '), 'https://chat.example.com/*');
  assert.equal(originPattern('http://localhost:3000/'), 'http://localhost:3000/*');
  assert.equal(originPattern('http://127.0.0.1:8080/c/1'), 'http://127.0.0.1:8080/*');
  // A default port is no port: the pattern the browser grants has none either.
  assert.equal(originPattern('https://chat.example.com:443/'), 'https://chat.example.com/*');
  assert.equal(originPattern('https://user:secret@chat.example.com/'), 'https://chat.example.com/*');
});

test('without keepPort (Firefox) the port is dropped', () => {
  assert.equal(originPattern('http://localhost:3000/c/1', false), 'http://localhost/*');
  assert.equal(originPattern('https://chat.example.com', false), 'https://chat.example.com/*');
});

test('only an http(s) address with a plain host gives a pattern', () => {
  for (const input of [
    '',
    'chat.example.com',
    'localhost:3000',
    'ftp://example.com',
    'file:///etc/passwd',
    'chrome://extensions',
    'javascript:alert(1)',
    'http://',
    'https://*.example.com',
    'https://*/',
    '<all_urls>',
  ]) {
    assert.equal(originPattern(input), null, input);
  }
});

test('the bundle runs on granted http(s) origins only, each once, in a stable order', () => {
  assert.deepEqual(
    pagePatterns([
      'https://b.example/*',
      'chrome://favicon/*',
      'http://a.example:3000/*',
      'https://b.example/*',
      'file:///*',
      '*://*/*',
    ]),
    ['http://a.example:3000/*', 'https://b.example/*'],
  );
  assert.deepEqual(pagePatterns(undefined), []);
});

test('a wildcard grant never becomes a page pattern: every site, every subdomain, every scheme', () => {
  // What the browser's own UI grants ("all websites", Firefox's about:addons toggle) or a wildcard subdomain.
  const wildcards = [
    'https://*/*',
    'http://*/*',
    '*://*/*',
    '<all_urls>',
    'https://*.example.com/*',
    'http://*.localhost/*',
    'https://*:8080/*',
  ];
  assert.deepEqual(pagePatterns([...wildcards, 'https://chat.example.com/*', 'http://localhost/*']), [
    'http://localhost/*',
    'https://chat.example.com/*',
  ]);
  // The options page names them: granted, but not used.
  assert.deepEqual(wildcardGrants([...wildcards, 'https://chat.example.com/*', 'chrome://favicon/*']), [
    '*://*/*',
    '<all_urls>',
    'http://*.localhost/*',
    'http://*/*',
    'https://*.example.com/*',
    'https://*/*',
    'https://*:8080/*',
  ]);
  assert.deepEqual(wildcardGrants(undefined), []);
});

test('an origin pattern is shown as the address the user typed', () => {
  assert.equal(patternLabel('http://localhost:3000/*'), 'http://localhost:3000');
});

test("the bundle runs in the page's world, its relay in the extension's, at document_start, in the top frame, always", () => {
  const common = {
    matches: ['http://127.0.0.1/*'],
    runAt: 'document_start',
    allFrames: false,
    persistAcrossSessions: true,
  };
  assert.deepEqual(contentScripts(['http://127.0.0.1/*']), [
    { id: SCRIPT_ID, js: ['owui-citations.js'], world: 'MAIN', ...common },
    { id: RELAY_ID, js: ['relay.js'], world: 'ISOLATED', ...common },
  ]);
});

test('each script registered once, then updated (the relay too where only the bundle was); unregistered when no origin is left', () => {
  const matches = ['https://chat.example.com/*'];
  const [bundle, relay] = contentScripts(matches);
  assert.deepEqual(syncSteps([], matches), { register: [bundle, relay], update: [], unregister: [] });
  assert.deepEqual(syncSteps([SCRIPT_ID, RELAY_ID], matches), {
    register: [],
    update: [bundle, relay],
    unregister: [],
  });
  assert.deepEqual(syncSteps([SCRIPT_ID], matches), { register: [relay], update: [bundle], unregister: [] });
  assert.deepEqual(syncSteps([SCRIPT_ID, RELAY_ID], []), {
    register: [],
    update: [],
    unregister: [SCRIPT_ID, RELAY_ID],
  });
  assert.deepEqual(syncSteps([], []), { register: [], update: [], unregister: [] });
});

test("the background runs only the build's parts, whatever a page asks for", () => {
  const names = ['features', 'locale-fr-FR'];
  assert.equal(requestedPart({ part: 'features' }, names), 'features');
  for (const message of [{ part: '../../evil' }, { part: 'https://evil.example/x.js' }, { part: 1 }, null, 'features'])
    assert.equal(requestedPart(message, names), null);
});
