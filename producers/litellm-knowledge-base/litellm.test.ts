/**
 * Claude's citations, Gemini's grounding and a knowledge base's search results as the real LiteLLM
 * proxy relays them: its answers to the mock's claude-*, gemini-* and litellm-knowledge-base
 * scenarios (fixtures/litellm, `make record-litellm`).
 */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { createAccumulator } from '../../extension/src/core/accumulate.js';
import { splitCited } from '../../extension/src/core/cited.js';
import { extractCitations } from '../../extension/src/core/extract.js';
import { linkMarkers } from '../../extension/src/core/markers.js';
import type { ExtractResult } from '../../extension/src/core/model.js';

const recorded = (name: string): string =>
  readFileSync(new URL(`../../extension/src/core/fixtures/litellm/${name}`, import.meta.url), 'utf8');
const answer = (body: string): string => JSON.parse(body).choices[0].message.content;
/** Each button: the text it follows (from the previous button), and the sources it names. */
const covered = (text: string, found: ExtractResult) =>
  linkMarkers(text, found.citations).map((s) => [text.slice(s.start, s.end).trim(), s.indices]);
const streamed = (name: string) => {
  const stream = createAccumulator();
  for (const event of recorded(name).split(/\r?\n\r?\n/)) stream.add(event);
  return { text: stream.text(), found: stream.result() };
};

test('Claude, not streamed: a source per document, its quote, exclusive end page; a button after its text', () => {
  const body = recorded('claude-citations.json');
  const found = extractCitations(body);
  assert.equal(found.format, 'claude-citations');
  assert.deepEqual(
    found.citations.map((c) => [c.title, c.kind, c.page, c.pageEnd, c.quote?.text.slice(0, 20)]),
    [
      ['rapport_2024.pdf', 'document', 3, null, 'Chiffres clés. Le ch'], // pages 3 to 4, 4 excluded: page 3 alone
      ['Politique de conservation', 'document', null, null, 'Transaction records '],
      ['Politique de sécurité – édition 2024', 'document', null, null, 'Access control. Acce'],
      ['Late payment interest in the EU', 'web', null, null, 'Late payments accrue'], // a search result with an address
    ],
  );
  const blocks: Array<[string, number[]]> = [
    ['revenue reached €12.4 M in 2024, up 8 %', [1]],
    ['transaction records must be kept for ten years', [2]],
    ['Access to production data requires two-factor authentication', [3]],
    ['late payments accrue interest at the ECB rate plus eight points', [4]],
    ['services make up 61 % of revenue', [1]],
  ];
  const text = answer(body);
  const spans = linkMarkers(text, found.citations);
  assert.deepEqual(
    spans.map((s, i) => [text.slice(s.end - (blocks[i]?.[0].length ?? 0), s.end), s.indices]),
    blocks,
  );
});

test('Claude, streamed: each citation after its text gives the same sources and buttons', () => {
  const whole = recorded('claude-citations.json');
  const { text, found } = streamed('claude-citations.sse');
  assert.equal(text, answer(whole));
  assert.deepEqual(
    found.citations.map((c) => c.title),
    extractCitations(whole).citations.map((c) => c.title),
  );
  assert.deepEqual(
    linkMarkers(text, found.citations).map((s) => [s.end, s.indices]),
    linkMarkers(text, extractCitations(whole).citations).map((s) => [s.end, s.indices]),
  );
});

test('Claude web search: cited pages first, then the pages searched and not cited, streamed or not', () => {
  const titles = (found: ExtractResult) =>
    found.citations.map((c) => [c.title, c.kind, Boolean(c.url?.startsWith('http://127.0.0.1:9000/static/web/'))]);
  const whole = extractCitations(recorded('claude-web-search.json'));
  assert.deepEqual(titles(whole), [
    ['Spain win EURO 2024 — match report', 'web', true],
    ['Spain 2-1 England: Oyarzabal wins it late in Berlin', 'web', true],
    ['¡Campeones! La Roja suma su cuarta Eurocopa', 'web', true],
    ['EURO 2024 awards: Rodri player of the tournament', 'web', true],
  ]);
  // the results come on a chunk of their own, before the citations
  assert.deepEqual(titles(streamed('claude-web-search.sse').found), titles(whole));
});

test('Gemini: every chunk of a support, offsets in UTF-8 bytes, the first support (without startIndex) kept', () => {
  const body = recorded('gemini-grounding.json');
  const found = extractCitations(body);
  assert.equal(found.format, 'gemini-grounding');
  assert.deepEqual(
    found.citations.map((c) => c.title),
    ['science.nasa.gov', 'esa.int', 'wikipedia.org'],
  );
  assert.deepEqual(covered(answer(body), found), [
    // LiteLLM's own annotations drop this one
    ['Die Milchstraße enthält schätzungsweise 100 bis 400 Milliarden Sterne.', [1]],
    ['Die Raumsonde Gaia hat die Positionen von fast zwei Milliarden Sternen vermessen.', [1, 2]],
    ['Die Sonne umkreist das galaktische Zentrum in etwa 26.000 Lichtjahren Abstand.', [3]],
  ]);
});

test('Gemini, streamed: the grounding chunk gives the same sources and buttons', () => {
  const whole = recorded('gemini-grounding.json');
  const { text, found } = streamed('gemini-grounding.sse');
  assert.equal(text, answer(whole));
  assert.deepEqual(covered(text, found), covered(answer(whole), extractCitations(whole)));
});

test('Knowledge base: a source per search result, its chunk and similarity, cited by its place; one not cited', () => {
  const body = recorded('litellm-knowledge-base.json');
  const found = extractCitations(body);
  assert.equal(found.format, 'litellm-knowledge-base');
  assert.deepEqual(
    found.citations.map((c) => [c.title, c.kind, c.url, c.score, c.scoreKind, c.snippet?.slice(0, 12)]),
    [
      ['employee-handbook.pdf', 'file', null, 0.912, 'similarity', 'Remote work.'],
      ['it-security-policy.md', 'file', null, 0.874, 'similarity', 'Laptops used'],
      ['employee-handbook.pdf', 'file', null, 0.801, 'similarity', 'Équipement. '], // another chunk of one file
      ['travel-policy.pdf', 'file', null, 0.552, 'similarity', 'Train travel'],
    ],
  );
  const text = answer(body);
  assert.deepEqual(
    linkMarkers(text, found.citations).map((s) => [text.slice(s.start, s.end), s.indices]),
    [
      ['[1]', [1]],
      ['[2]', [2]],
      ['[3]', [3]],
      ['[1]', [1]],
    ],
  );
  assert.deepEqual(
    splitCited(text, found.citations).retrieved.map((c) => c.title),
    ['travel-policy.pdf'],
  );
});

test('Knowledge base, streamed: the last chunk, which has no text, gives the same sources', () => {
  const whole = recorded('litellm-knowledge-base.json');
  const { text, found } = streamed('litellm-knowledge-base.sse');
  assert.equal(text, answer(whole));
  assert.deepEqual(found.citations, extractCitations(whole).citations);
  const last = recorded('litellm-knowledge-base.sse').trim().split(/\n\n/).at(-2)!;
  assert.deepEqual(Object.keys(JSON.parse(last.slice('data: '.length)).choices[0].delta), ['provider_specific_fields']);
});

test('Knowledge base: the results of several stores are numbered on, store after store', () => {
  const body = JSON.parse(recorded('litellm-knowledge-base.json'));
  const fields = body.choices[0].message.provider_specific_fields;
  fields.search_results = [fields.search_results[0], { data: [] }, fields.search_results[0]];
  const found = extractCitations(body);
  assert.deepEqual(
    found.citations.map((c) => c.refs),
    [[1], [2], [3], [4], [5], [6], [7], [8]],
  );
  fields.search_results = [{ data: [] }]; // the stores found nothing: no sources, and nothing unreadable
  assert.deepEqual(extractCitations(body), { format: null, citations: [] });
});

test("Knowledge base on Bedrock: a web page's address is its link, Bedrock's page number its page; s3:// is no link", () => {
  const result = (fileId: string, filename: string, text: string, page?: number) => ({
    file_id: fileId,
    filename,
    score: 0.6,
    attributes: {
      'x-amz-bedrock-kb-source-uri': fileId,
      ...(page === undefined ? {} : { 'x-amz-bedrock-kb-document-page-number': page }),
    },
    content: [{ type: 'text', text }],
  });
  const data = [
    result('s3://kb-docs/policies/backup-policy.pdf', 'backup-policy.pdf', 'Daily backups are kept 35 days.', 3.0),
    result('https://wiki.example/it/restore', 'restore', 'Restores go through the desk.'),
  ];
  const body = {
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'Kept 35 days.',
          provider_specific_fields: { search_results: [{ object: 'vector_store.search_results.page', data }] },
        },
      },
    ],
  };
  const found = extractCitations(body);
  assert.equal(found.format, 'litellm-knowledge-base');
  assert.deepEqual(
    found.citations.map((c) => [c.title, c.url, c.page]),
    [
      ['backup-policy.pdf', null, 3],
      ['restore', 'https://wiki.example/it/restore', null],
    ],
  );
});
