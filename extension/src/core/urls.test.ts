import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fileName, hostOf, isFileName, isWebUrl, safeUrl, urlLabel } from './urls.js';

test('http(s) and same-origin relative links are kept, normalised', () => {
  assert.equal(safeUrl('https://example.com/a b'), 'https://example.com/a%20b');
  assert.equal(safeUrl('  HTTP://Example.com/x  '), 'http://example.com/x');
  assert.equal(safeUrl('/api/v1/files/1/content#page=3'), '/api/v1/files/1/content#page=3');
});

test('every other scheme, protocol-relative links and junk are dropped', () => {
  for (const raw of [
    'javascript:alert(1)',
    ' JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>',
    'vbscript:msgbox',
    'file:///etc/passwd',
    '//evil.example/x',
    '/\\evil.example',
    'mailto:a@b.c',
    'about:blank',
    'not a url',
    '',
    null,
    42,
    { href: 'https://x' },
  ]) {
    assert.equal(safeUrl(raw), null, String(raw));
  }
});

test('a path that normalises to another host is dropped, not linked as same-origin', () => {
  for (const raw of [
    '/.//evil.com/x',
    '/..//evil.com/report.pdf',
    '/%2e//evil.com',
    '/%2e%2e//evil.com',
    '/a/../..//evil.com',
    '/./\\evil.com',
    '/.\\/evil.com',
  ]) {
    assert.equal(safeUrl(raw), null, raw);
  }
  assert.equal(safeUrl('/a/./b/../c?q=1'), '/a/c?q=1'); // a path on this site, normalised
});

test('a link is shown and opened without userinfo: "good.com@evil.com" reads as the evil.com it opens', () => {
  assert.equal(safeUrl('https://good.com@evil.com/'), 'https://evil.com/');
  assert.equal(safeUrl('https://user:secret@example.com/a?q=1#p'), 'https://example.com/a?q=1#p');
  assert.equal(safeUrl('http://:@example.com/'), 'http://example.com/');
  assert.equal(safeUrl('https://www.paypal.com%2flogin@evil.com/'), 'https://evil.com/');
  assert.equal(safeUrl('/a@b.com/x'), '/a@b.com/x'); // a path on this site: no userinfo to remove
});

test('a link longer than any page address is dropped, not stored', () => {
  assert.equal(safeUrl(`https://example.com/${'a'.repeat(9000)}`), null);
  assert.ok(safeUrl(`https://example.com/${'a'.repeat(8000)}`));
});

test('labels for sources without a title', () => {
  assert.equal(urlLabel('https://www.example.com/docs/guide/'), 'www.example.com/docs/guide');
  assert.equal(urlLabel('https://example.com/r%C3%A9sum%C3%A9.pdf'), 'example.com/résumé.pdf');
  assert.equal(hostOf('https://www.nasa.gov/x'), 'nasa.gov');
  assert.equal(hostOf(null), null);
  assert.equal(fileName('/app/data/rapport_2024.pdf'), 'rapport_2024.pdf');
  assert.equal(fileName('C:\\docs\\a.txt'), 'a.txt');
});

test('a name is decoded as it reads, never into a line break, a control or a bidi character', () => {
  // A same-origin file URL of a crafted name (security review 2026-11-27, F2): in a RIS file,
  // `%0D%0A` decoded would end the record and start one of its own.
  assert.equal(
    fileName('/api/v1/files/x/content%0D%0AER%20%20-%20%0D%0ATY%20%20-%20ELEC'),
    'content%0D%0AER  - %0D%0ATY  - ELEC',
  );
  assert.equal(
    fileName('/f/a%C2%85b%E2%80%A8c%0Bd%1Ce%E2%80%AEf%00.pdf'),
    'a%C2%85b%E2%80%A8c%0Bd%1Ce%E2%80%AEf%00.pdf',
  );
  assert.equal(urlLabel('https://example.com/x%0A%E2%80%A9y'), 'example.com/x%0A%E2%80%A9y');
  assert.equal(fileName('/f/r%C3%A9sum%C3%A9%20%F0%9F%98%80.pdf'), 'résumé 😀.pdf');
});

test('a web URL is an absolute http(s) one that passes the safe-URL check', () => {
  assert.equal(isWebUrl('https://example.com/a'), true);
  assert.equal(isWebUrl('/api/v1/files/1/content'), false);
  assert.equal(isWebUrl('javascript:alert(1)'), false);
  assert.equal(isWebUrl('https://exa mple.com/'), false);
  assert.equal(isWebUrl(null), false);
});

test("a file's name ends with a document's extension or is a path without blanks; prose with a slash is not one", () => {
  for (const name of ['Handbook.PDF', ' policies/retention.md ', 'C:\\share\\minutes', 'config.yaml', 'rates.tsv'])
    assert.ok(isFileName(name), name);
  for (const text of ['HR / Policies', 'Version 2.0', 'and/or more', 'e.g.', '.pdf', ''])
    assert.ok(!isFileName(text), text);
});
