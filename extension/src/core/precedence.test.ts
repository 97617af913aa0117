import assert from 'node:assert/strict';
import { test } from 'node:test';

import { citation } from '../../test-support/citation.js';
import type { ExtractResult } from './model.js';
import { chooseCitations } from './precedence.js';

const reading = (format: string | null, urls: Array<string | null>): ExtractResult => ({
  format,
  citations: urls.map((url, i) => citation(i + 1, { url, format: format ?? 'none' })),
});
const NONE = reading(null, []);
const PERPLEXITY = reading('perplexity', ['https://a.example/', 'https://b.example/']);
// Open WebUI's own source events: its copy of a producer's url_citations, or its knowledge base.
const OWN_COPY = reading('open-webui', ['https://a.example/']);
const JINA_TEXT = reading('jina-deepsearch', ['https://a.example/', 'https://c.example/']);
const LIGHTRAG_TEXT = reading('lightrag', [null, null]);
const STORED = reading('open-webui', ['https://a.example/', 'https://b.example/', 'https://c.example/']);

test('which reading of an answer is shown', () => {
  const cases: Array<[string, ExtractResult, ExtractResult | null, ExtractResult | null, ExtractResult]> = [
    ['what the producer sent wins over all', PERPLEXITY, JINA_TEXT, STORED, PERPLEXITY],
    ['the finished text, when nothing streamed and nothing is stored', NONE, JINA_TEXT, null, JINA_TEXT],
    ['what is stored, when nothing streamed (a reloaded chat)', NONE, JINA_TEXT, STORED, STORED],
    ['what is stored, while the text is not finished', NONE, null, STORED, STORED],
    ["the text's linked sources over Open WebUI's copy of them", OWN_COPY, JINA_TEXT, STORED, JINA_TEXT],
    ["Open WebUI's own, over sources the text lists without links", OWN_COPY, LIGHTRAG_TEXT, null, OWN_COPY],
    ['nothing read anywhere', NONE, null, null, NONE],
  ];
  for (const [what, streamed, written, stored, shown] of cases) {
    assert.equal(chooseCitations({ streamed, written: () => written, stored: () => stored }), shown, what);
  }
});

test('the text and the store are not read when what streamed wins', () => {
  const unread = () => assert.fail('read');
  assert.equal(chooseCitations({ streamed: PERPLEXITY, written: unread, stored: unread }), PERPLEXITY);
});
