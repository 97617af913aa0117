/**
 * The core against every scenario of the mock server, both modes: what a user would see —
 * how many sources, their numbers, titles, links, pages, scores and quotes, and which parts
 * of the answer cite which source. The expectations are data, each producer's `expected.json`
 * (producers/<name>/), one entry per scenario; what data cannot say is checked per wire format below.
 */

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { answerOf, type MockServer, startMockServer } from '../../test-support/mock-server.js';
import { producerEntries } from '../../test-support/producers.js';
import { createAccumulator } from './accumulate.js';
import { splitCited } from './cited.js';
import { extractCitations } from './extract.js';
import { linkMarkers } from './markers.js';
import type { Citation } from './model.js';
import { answerTags } from './tags.js';

interface Expected {
  /** Another scenario's expectations, which this entry's keys replace (a variant's). */
  like?: string;
  format: string;
  /** Titles in order; the mock's address written 127.0.0.1. */
  titles: string[];
  /** For each span in the answer: its kind and the citation numbers, and the text it covers starts with. */
  spans: Array<[kind: string, indices: number[], startsWith: string]>;
  /** The sources returned but not cited by the text (listed apart); none when all are cited. */
  retrieved?: number[];
  /** The producer sends its sources only when streaming (Brave): its body has none. */
  streamOnly?: boolean;
  /** A field of every citation, in order. */
  fields?: Record<string, unknown[]>;
  /** Fields of one citation by number, `quote.text` for a nested one; `{match}` is a pattern. */
  sources?: Record<string, Record<string, unknown>>;
  /** How many places of the answer each citation is anchored to. */
  anchors?: number[];
  notes?: string;
}

const ENTRIES = producerEntries<Partial<Expected>>('expected.json');
const expectationOf = (model: string): Expected => {
  const { like, ...entry } = ENTRIES[model]!;
  return (like ? { ...expectationOf(like), ...entry } : entry) as Expected;
};

/** `{base}` in an expected string is the mock server's address. */
const withBase = (value: unknown, base: string): unknown =>
  typeof value === 'string' ? value.replaceAll('{base}', base) : value;

const isPattern = (value: unknown): value is { match: string } =>
  typeof value === 'object' && value !== null && 'match' in value;

const valueAt = (citation: Citation, path: string): unknown =>
  path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | null)?.[key], citation);

/** What holds for every answer of a wire format, beyond its scenarios' data. */
const FORMAT_CHECKS: Record<string, (citations: Citation[], text: string) => void> = {
  brave(citations, text) {
    const tags = answerTags(text);
    assert.deepEqual(
      tags.map((t) => t.name),
      ['citation', 'citation', 'citation', 'citation', 'usage'],
    );
    assert.deepEqual(
      tags.filter((t) => t.name === 'citation').map((t) => citations.find((c) => c.url === t.data?.url)?.index),
      [1, 2, 3, 2],
    );
  },
  ragflow: similarityScores,
  'nvidia-rag'(citations) {
    similarityScores(citations);
    // A table's content is a base64 image: its description stands for it.
    assert.ok(citations.every((c) => !/^[A-Za-z0-9+/=]{40,}$/.test(c.snippet ?? '')));
  },
};

function similarityScores(citations: Citation[]): void {
  assert.ok(citations.every((c) => c.scoreKind === 'similarity' && c.score! > 0 && c.score! < 1));
}

let mock: MockServer;
before(async () => {
  mock = await startMockServer();
});
after(() => mock.stop());

test('every expectation says only what this test checks (a misspelt key would check nothing)', () => {
  const known = [
    'like',
    'format',
    'titles',
    'spans',
    'retrieved',
    'streamOnly',
    'fields',
    'sources',
    'anchors',
    'notes',
  ];
  for (const [model, entry] of Object.entries(ENTRIES)) {
    assert.deepEqual(
      Object.keys(entry).filter((key) => !known.includes(key)),
      [],
      model,
    );
  }
});

for (const model of Object.keys(ENTRIES)) {
  const expected = expectationOf(model);
  describe(model, () => {
    const check = (citations: Citation[], text: string): void => {
      const host = new URL(mock.url).host;
      assert.deepEqual(
        citations.map((c) => c.title.replace(host, '127.0.0.1')),
        expected.titles,
      );
      assert.deepEqual(
        citations.map((c) => c.index),
        expected.titles.map((_, i) => i + 1),
      );
      for (const c of citations) assert.ok(c.url === null || c.url.startsWith(mock.url), c.url ?? '');
      const spans = linkMarkers(text, citations);
      assert.deepEqual(
        spans.map((s) => [s.kind, s.indices]),
        expected.spans.map(([kind, indices]) => [kind, indices]),
      );
      spans.forEach((span, i) =>
        assert.ok(text.slice(span.start, span.end).startsWith(expected.spans[i]![2]), text.slice(span.start, span.end)),
      );
      assert.deepEqual(
        splitCited(text, citations).retrieved.map((c) => c.index),
        expected.retrieved ?? [],
      );
      for (const [key, values] of Object.entries(expected.fields ?? {})) {
        assert.deepEqual(
          citations.map((c) => valueAt(c, key)),
          values.map((v) => withBase(v, mock.url)),
          key,
        );
      }
      for (const [index, fields] of Object.entries(expected.sources ?? {})) {
        for (const [key, value] of Object.entries(fields)) {
          const actual = valueAt(citations[Number(index) - 1]!, key);
          if (isPattern(value)) assert.match(String(actual), new RegExp(value.match), `${index}.${key}`);
          else assert.deepEqual(actual, withBase(value, mock.url), `${index}.${key}`);
        }
      }
      if (expected.anchors)
        assert.deepEqual(
          citations.map((c) => c.anchors.length),
          expected.anchors,
        );
      for (const { quote, snippet } of citations) {
        // A quote placed by offsets is the snippet's text there (UTF-16 offsets).
        if (quote?.start != null && quote.end != null) assert.equal(snippet!.slice(quote.start, quote.end), quote.text);
      }
      FORMAT_CHECKS[expected.format]?.(citations, text);
    };

    test('non-streaming body', async () => {
      const body = await mock.body(model);
      const result = extractCitations(body);
      if (expected.streamOnly) return void assert.deepEqual(result, { format: null, citations: [] });
      assert.equal(result.format, expected.format);
      check(result.citations, answerOf(body));
    });

    test('stream, chunk by chunk, gives the same citations', async () => {
      const sse = await mock.stream(model);
      const accumulator = createAccumulator();
      for (const event of sse.split('\n\n')) accumulator.add(event);
      const result = accumulator.result();
      assert.equal(result.format, expected.format);
      check(result.citations, accumulator.text());
      if (!expected.streamOnly) assert.deepEqual(result, extractCitations(await mock.body(model)));
      assert.deepEqual(extractCitations(sse), result); // the whole SSE text at once
    });
  });
}
