/** Claude's citations and Gemini's grounding as the real LiteLLM proxy relayed them (fixtures/litellm). */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { createAccumulator } from '../accumulate.js';
import { extractCitations } from '../extract.js';
import { linkMarkers } from '../markers.js';

const recorded = (name: string): string => readFileSync(new URL(`../fixtures/litellm/${name}`, import.meta.url), 'utf8');
const answer = (body: string): string => JSON.parse(body).choices[0].message.content;
const covered = (text: string, found = extractCitations(text)) =>
  linkMarkers(text === '' ? '' : answer(text), found.citations).map((s) => [answer(text).slice(s.start, s.end), s.indices]);

test('Claude, not streamed: one source per document, quotes, exclusive end page, buttons after the supported text', () => {
  const body = recorded('claude-docs.json');
  const { format, citations } = extractCitations(body);
  assert.equal(format, 'claude-citations');
  assert.deepEqual(citations.map((c) => [c.title, c.kind, c.page, c.pageEnd, c.quote?.text]), [
    ['Garden notes', 'document', null, null, 'The grass is green. '],
    ['Wetter.pdf', 'document', 2, null, 'Der Himmel über Zürich ist blau.'], // pages 2 to 3, 3 excluded
    ['Custom content', 'document', null, null, 'The sky is blue.'],
    ['Roses', 'web', null, null, 'Roses are red.'], // a search result with an address
  ]);
  assert.deepEqual(covered(body), [['the grass is green', [1]], ['the sky — über Zürich — is blue', [2, 3]], ['roses are red', [4]]]);
});

test('Claude, streamed: the citation chunks give the same sources', () => {
  const stream = createAccumulator();
  for (const event of recorded('claude-docs.sse').split('\n\n')) stream.add(event);
  const { format, citations } = stream.result();
  assert.equal(format, 'claude-citations');
  assert.deepEqual(citations.map((c) => c.title), ['Garden notes', 'Wetter.pdf', 'Custom content', 'Roses']);
  assert.ok(stream.text().startsWith('According to the documents'));
});

test('Claude web search: cited pages first, then the other pages it searched', () => {
  const { citations } = extractCitations(recorded('claude-web.json'));
  assert.deepEqual(citations.map((c) => [c.title, c.kind]), [['Claude Shannon - Wikipedia', 'web'], ['Claude Shannon | Biography', 'web']]);
  assert.ok(citations.every((c) => c.url?.startsWith('https://example.org/')));
});

test('Gemini: every chunk of a support, offsets in UTF-8 bytes, the first support without startIndex kept', () => {
  const body = recorded('gemini-web.json');
  const { format, citations } = extractCitations(body);
  assert.equal(format, 'gemini-grounding');
  assert.deepEqual(citations.map((c) => c.title), ['koelner-dom.de', 'wikipedia.org', 'unesco.org']);
  const spans = covered(body);
  assert.equal(spans[0]![0], 'Größe und Alter: Der Kölner Dom ist 157 Meter hoch.'); // LiteLLM's own annotations drop this one
  assert.ok(spans.some(([, indices]) => (indices as number[]).length > 1), JSON.stringify(spans));
});

test('Gemini, streamed: the grounding chunk gives the same sources', () => {
  const stream = createAccumulator();
  for (const event of recorded('gemini-web.sse').split(/\r?\n\r?\n/)) stream.add(event);
  assert.deepEqual(stream.result().citations.map((c) => c.title), ['koelner-dom.de', 'wikipedia.org', 'unesco.org']);
});
