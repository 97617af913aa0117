/** Failures `npm run fuzz` (properties.test.ts) found, each kept as a plain test with its counterexample. */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { extractCitations, hostOf, linkMarkers, untitledSource } from './index.js';

test('a language tag named like an Object property ("valueOf", "__proto__-en") gives the untitled-source text', () => {
  // The table lookup found Object.prototype's members: the title became a function or an object.
  for (const locale of ['valueOf', 'toString', 'constructor', '__proto__', '__proto__-en', 'hasOwnProperty-x']) {
    assert.equal(untitledSource(locale), 'Untitled source', locale);
  }
  assert.equal(
    extractCitations({ sources: [{ document: [''] }] }, { locale: 'valueOf' }).citations[0]!.title,
    'Untitled source',
  );
  assert.equal(untitledSource('fr-FR'), 'Source sans titre');
});

test('"Sources: [1, 2]" on its own line is one hidden span, not a hidden span with a marker inside', () => {
  // Overlapping spans made the UI split the text node at a negative offset, which throws.
  const citations = extractCitations({
    search_results: [{ url: 'https://e.example/a' }, { url: 'https://e.example/b' }],
  }).citations;
  assert.deepEqual(linkMarkers('\nSources: [1, 2]\n', citations), [
    { start: 1, end: 16, indices: [1, 2], kind: 'hide' },
  ]);
  assert.deepEqual(
    linkMarkers('Stars [1].\nSources: [1, 2\n, 3]', citations).map((s) => [s.kind, s.start]),
    [
      ['marker', 6],
      ['hide', 11],
    ],
  );
});

test('hostOf a string that parses as a URL of another scheme ("Sources: [1, 2]", "mailto:") is null, not ""', () => {
  assert.equal(hostOf('Sources: [1, 2]'), null);
  assert.equal(hostOf('mailto:a@e.example'), null);
  assert.equal(hostOf('javascript:alert(1)'), null);
  assert.equal(hostOf('https://www.e.example/a'), 'e.example');
});

test('a file path or URL that names nothing ("/ ", "/") gives the untitled-source text, not a blank title', () => {
  // The file name " " and the label "" of the URL "/" were taken as titles: a button read "Source 1: ".
  const azure = { choices: [{ messages: [{ role: 'tool', content: '{"citations":[{"filepath":"/ "}]}' }] }] };
  assert.equal(extractCitations(azure).citations[0]!.title, 'Untitled source');
  const chat = { choices: [{ message: { annotations: [{ type: 'url_citation', url: '/' }] } }] };
  assert.equal(extractCitations(chat).citations[0]!.title, 'Untitled source');
  const named = { choices: [{ message: { annotations: [{ type: 'url_citation', url: '/static/a%20b.pdf' }] } }] };
  assert.equal(extractCitations(named).citations[0]!.title, 'a b.pdf');
});

test('a sources tag after 150,000 markers is hidden without overflowing the stack', () => {
  // Dropping the tag's own markers spread every span into one call: "Maximum call stack size exceeded".
  const citations = extractCitations({
    search_results: [{ url: 'https://e.example/a' }, { url: 'https://e.example/b' }],
  }).citations;
  const spans = linkMarkers(`${'[1]'.repeat(150_000)}\nSources: [1, 2]`, citations);
  assert.equal(spans.length, 150_001);
  assert.deepEqual(spans.at(-1), { start: 450_001, end: 450_016, indices: [1, 2], kind: 'hide' });
});

test('one source cited twice keeps its quote with the snippet the quote was found in', () => {
  // Merging took the second chunk's quote (offsets 0-1 in "\u0001") but kept the first chunk's
  // snippet "\u000e": the modal would highlight "\u000e" as the verbatim quote.
  const payload = {
    citations: [
      { section_id: ' 7 ', content: '\u000e', quote: '', quote_start: 1, quote_end: 1 },
      { section_id: ' 7 ', content: '\u0001', quote: '\u0001', quote_start: 0, quote_end: 1 },
    ],
  };
  const [citation] = extractCitations(payload).citations;
  assert.equal(citation!.snippet, '\u0001');
  assert.deepEqual(citation!.quote, { text: '\u0001', start: 0, end: 1, verbatim: true });
  const readable = {
    citations: [
      { section_id: 's1', content: 'First chunk of the report.' },
      { section_id: 's1', content: 'The sky is blue at noon.', quote: 'blue at noon', quote_start: 11, quote_end: 23 },
    ],
  };
  const [merged] = extractCitations(readable).citations;
  assert.equal(merged!.snippet!.slice(merged!.quote!.start!, merged!.quote!.end!), 'blue at noon');
});
