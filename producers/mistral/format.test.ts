/**
 * Mistral's content lists beyond the scenario's: what is read of each kind of chunk, where a
 * tool_reference's anchor lies, and a stream whose list deltas carry text too.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createAccumulator } from '../../extension/src/core/accumulate.js';
import { extractCitations } from '../../extension/src/core/extract.js';
import { linkMarkers } from '../../extension/src/core/markers.js';

const page = (name: string, extra: Record<string, unknown> = {}) => ({
  type: 'tool_reference',
  tool: 'web_search',
  title: name,
  url: `https://e.example/${name}`,
  ...extra,
});
const text = (value: string) => ({ type: 'text', text: value });
const body = (content: unknown[]) => ({ choices: [{ index: 0, message: { role: 'assistant', content } }] });

test('each tool_reference cites the text since the one before it; one before any text cites none', () => {
  const content = [page('early'), text('One.'), page('a'), page('b'), text(' Two'), text(' halves.'), page('c')];
  const found = extractCitations(body(content));
  assert.equal(found.format, 'mistral');
  const answer = 'One. Two halves.';
  assert.deepEqual(
    linkMarkers(answer, found.citations).map((s) => [answer.slice(s.start, s.end), s.indices]),
    [
      ['One.', [2, 3]],
      ['Two halves.', [4]],
    ],
  );
  assert.deepEqual(found.citations[0]!.anchors, []);
});

test('a reference chunk names entries of what the client sent: an answer with only those has no sources', () => {
  const content = [text('Nihon Hidankyo won.'), { type: 'reference', reference_ids: [0, 1] }];
  assert.deepEqual(extractCitations(body(content)), { format: null, citations: [] });
});

test('what a tool_reference has is shown: a document without a link, a title or a link alone', () => {
  const content = [
    text('From the library.'),
    { type: 'tool_reference', tool: 'document_library', title: 'rapport_2024.pdf', description: 'Chiffres clés.' },
    { type: 'tool_reference', tool: 'web_search', url: 'https://e.example/untitled' },
    { type: 'tool_reference', tool: 'web_search', title: 'A script', url: 'javascript:alert(1)' },
    { type: 'tool_reference', tool: 'web_search', description: 'Neither title nor link.' },
  ];
  const found = extractCitations(body(content));
  assert.deepEqual(
    found.citations.map((c) => [c.title, c.url, c.kind, c.snippet]),
    [
      ['rapport_2024.pdf', null, 'document', 'Chiffres clés.'],
      ['e.example/untitled', 'https://e.example/untitled', 'web', null],
      ['A script', null, 'web', null],
    ],
  );
});

test('streamed, a list delta may carry text beside its tool_reference: the same sources as the body', () => {
  const content = [page('read-only'), text('Alpha. '), text('Beta.'), page('a'), text(' Gamma.'), page('b')];
  const whole = body([{ type: 'thinking', thinking: [text('Searching.'), content[0]] }, ...content.slice(1)]);
  const stream = createAccumulator();
  const chunk = (delta: unknown) => ({ object: 'chat.completion.chunk', choices: [{ index: 0, delta }] });
  stream.add(chunk({ role: 'assistant', content: [{ type: 'thinking', thinking: [text('Searching.')] }] }));
  stream.add(chunk({ content: [{ type: 'thinking', thinking: [page('read-only')] }] }));
  stream.add(chunk({ content: 'Alpha. ' }));
  stream.add(chunk({ content: [text('Beta.'), page('a')] }));
  stream.add(chunk({ content: [text(' Gamma.'), page('b'), { type: 'reference', reference_ids: [3] }] }));
  assert.equal(stream.text(), 'Alpha. Beta. Gamma.');
  assert.deepEqual(stream.result(), extractCitations(whole));
  assert.deepEqual(
    stream.result().citations.map((c) => [c.title, c.anchors.length]),
    [
      ['a', 1],
      ['b', 1],
      ['read-only', 0],
    ],
  );
});
