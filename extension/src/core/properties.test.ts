/**
 * Totality of the core's public API (index.ts) under hostile input: for values shaped like
 * every wire format with wrong types, nulls, huge numbers, deep nesting and lone surrogates
 * (producers/<name>/shape.ts, test-support/hostile.ts), and for anything else, no entry point throws, every link is
 * http(s) or same-origin relative, every span lies inside the text, a highlighted quote is the
 * quote. FC_RUNS sets the cases per property: 2,000 in `npm test`, 100,000 in `npm run fuzz`.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import {
  asJson,
  hostileLocale,
  hostileString,
  hostileValue,
  jsonText,
  markerText,
  sseText,
} from '../../test-support/hostile.js';
import { anyPayload, anyWirePayload, WIRE_FORMATS } from '../../test-support/wire-formats.js';
import {
  createAccumulator,
  type ExtractResult,
  extractCitations,
  FORMATS,
  hostOf,
  linkMarkers,
  safeUrl,
  untitledSource,
} from './index.js';
import { isObject } from './json.js';
import { citationNumbers } from './markers.js';

// FC_SEED replays a failure: the seed its report printed.
const RUNS = {
  numRuns: Number(process.env.FC_RUNS ?? 2_000),
  includeErrorInReport: true,
  ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}),
};
const KINDS = ['document', 'web', 'post', 'file', 'graph'];
const SCORE_KINDS = ['similarity', 'reranker', 'bm25', 'raw'];
const UNITS = ['utf16', 'codePoints', 'utf8'];

const isSafeLink = (url: string): boolean =>
  /^https?:\/\//.test(url) || (url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\'));
const words = (text: string): string => text.split(/\s+/).filter(Boolean).join(' ');
const isRef = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 0;

function assertWellFormed(result: ExtractResult): void {
  assert.equal(result.format === null, result.citations.length === 0);
  const ids = new Set<string>();
  result.citations.forEach((c, i) => {
    assert.equal(c.index, i + 1);
    assert.ok(typeof c.id === 'string' && !ids.has(c.id), `one citation per source: ${c.id}`);
    ids.add(c.id);
    assert.ok(typeof c.title === 'string' && c.title.trim() !== '', `title: ${String(c.title)}`);
    assert.ok(c.url === null || isSafeLink(c.url), `url: ${c.url}`);
    assert.ok(c.snippet === null || (typeof c.snippet === 'string' && c.snippet.trim() !== ''));
    assert.ok(
      c.score === null ? c.scoreKind === null : Number.isFinite(c.score) && SCORE_KINDS.includes(c.scoreKind!),
      `score ${c.score} ${c.scoreKind}`,
    );
    assert.ok(
      c.pages.every((p, j) => Number.isSafeInteger(p) && (j === 0 || p > c.pages[j - 1]!)),
      `pages ${c.pages}`,
    );
    assert.equal(c.page, c.pages[0] ?? null);
    assert.ok(c.pageEnd === null || (c.page !== null && c.pageEnd > c.page), `pageEnd ${c.pageEnd} after ${c.page}`);
    assert.ok(KINDS.includes(c.kind) && c.format === result.format);
    // Anchors are kept as the producer gave them (linkMarkers ignores those outside the text).
    assert.ok(
      c.refs.every(isRef) &&
        c.anchors.every((a) => Number.isSafeInteger(a.start) && Number.isSafeInteger(a.end) && UNITS.includes(a.unit)),
    );
    if (c.quote) {
      const { text, start, end, verbatim } = c.quote;
      assert.ok(typeof text === 'string' && text !== '');
      if (verbatim) {
        // the UI highlights snippet[start, end): it must be the quote
        assert.ok(
          c.snippet !== null && start !== null && end !== null && start >= 0 && start <= end && end <= c.snippet.length,
          `quote at ${start}-${end}`,
        );
        assert.equal(words(c.snippet.slice(start, end)), words(text));
      } else {
        assert.ok(start === null && end === null);
      }
    }
  });
}

test('extractCitations: any payload, any locale, no throw, well-formed citations', () => {
  fc.assert(
    fc.property(anyPayload, hostileLocale, (payload, locale) => {
      assertWellFormed(extractCitations(payload, { locale }));
    }),
    RUNS,
  );
});

test("every registered format has its wire shape: producers/<name>/shape.ts, or the core readers' in test-support/hostile.ts", () => {
  assert.deepEqual(
    FORMATS.map((format) => format.name).filter((name) => !(name in WIRE_FORMATS)),
    [],
  );
});

for (const format of FORMATS) {
  const ownShape = WIRE_FORMATS[format.name];
  if (ownShape)
    test(`format ${format.name} (registry): its own wire shape with hostile fields, no throw`, () => {
      fc.assert(
        fc.property(fc.oneof({ weight: 3, arbitrary: ownShape }, anyPayload), (payload) => {
          if (!isObject(payload)) return; // extractCitations hands the formats objects only
          const found = format.extract(payload);
          if (found !== null) {
            assert.ok(Array.isArray(found.drafts) && typeof found.ordered === 'boolean');
            for (const draft of found.drafts)
              assert.ok(typeof draft.id === 'string' && (draft.refs ?? []).every(isRef), draft.id);
          }
          assertWellFormed(extractCitations(payload));
        }),
        RUNS,
      );
    });
}

test('createAccumulator: any sequence of chunks (objects, JSON, SSE text, garbage), no throw', () => {
  fc.assert(
    fc.property(fc.array(anyPayload, { maxLength: 8 }), hostileLocale, (chunks, locale) => {
      const accumulator = createAccumulator({ locale });
      chunks.forEach((chunk) => accumulator.add(chunk));
      assertWellFormed(accumulator.result());
      assert.equal(typeof accumulator.text(), 'string');
    }),
    RUNS,
  );
});

test('createAccumulator: the answer text is every delta content, in order, whatever rides along', () => {
  const chunk = fc.record({
    content: hostileString,
    annotations: hostileValue,
    top: fc.constantFrom('extra', 'citations', 'search_results', 'search_sources', 'sources', 'context'),
    value: hostileValue,
  });
  fc.assert(
    fc.property(fc.array(chunk, { maxLength: 8 }), (chunks) => {
      const accumulator = createAccumulator();
      for (const { content, annotations, top, value } of chunks) {
        accumulator.add({
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta: { content, annotations } }],
          [top]: value,
        });
      }
      assert.equal(accumulator.text(), chunks.map((c) => c.content).join(''));
    }),
    RUNS,
  );
});

test('createAccumulator: a stream read as objects, as JSON texts or as SSE text gives the same citations', () => {
  fc.assert(
    fc.property(fc.array(anyWirePayload.map(asJson), { maxLength: 6 }), fc.boolean(), (chunks, crlf) => {
      const [objects, texts, sse] = [createAccumulator(), createAccumulator(), createAccumulator()];
      chunks.forEach((chunk) => objects.add(chunk));
      chunks.forEach((chunk) => texts.add(jsonText(chunk)));
      sse.add(sseText(chunks, 0, crlf));
      const expected = JSON.stringify([objects.result(), objects.text()]);
      assert.equal(JSON.stringify([texts.result(), texts.text()]), expected);
      assert.equal(JSON.stringify([sse.result(), sse.text()]), expected);
    }),
    RUNS,
  );
});

test('linkMarkers: any text, spans inside it, sorted, not overlapping, citing known sources', () => {
  const known3 = extractCitations({
    search_results: [{ url: 'https://e.example/a' }, { url: 'https://e.example/b' }, {}],
  }).citations;
  fc.assert(
    fc.property(markerText, fc.oneof(anyWirePayload, fc.constant(null)), (text, payload) => {
      const citations = [...known3, ...extractCitations(payload).citations.map((c) => ({ ...c, index: c.index + 3 }))];
      const known = new Set(citations.map((c) => c.index));
      const spans = linkMarkers(text, citations);
      const replaced = spans.filter((s) => s.kind !== 'link'); // what the UI cuts out of the text
      spans.forEach((span, i) => {
        assert.ok(
          span.start >= 0 && span.start <= span.end && span.end <= text.length,
          `${span.start}-${span.end} in ${text.length}`,
        );
        assert.ok(i === 0 || span.start >= spans[i - 1]!.start, 'sorted');
        assert.ok(span.indices.every((index) => known.has(index)));
        // A marker names a source, or says which of its numbers name none (never one it names).
        assert.ok(span.kind === 'hide' || span.indices.length > 0 || (span.unnamed?.length ?? 0) > 0);
        const { byRef } = citationNumbers(citations);
        assert.ok(
          (span.unnamed ?? []).every((n) => !byRef.has(n)),
          'an unnamed number names no source',
        );
      });
      replaced.forEach((span, i) => {
        assert.ok(
          span.start < span.end && (i === 0 || span.start >= replaced[i - 1]!.end),
          `overlap at ${span.start}-${span.end}`,
        );
      });
      for (const link of spans.filter((s) => s.kind === 'link')) {
        assert.ok(
          replaced.every((s) => link.end <= s.start || link.start >= s.end || link.start === link.end),
          'link inside a marker',
        );
      }
    }),
    RUNS,
  );
});

test('safeUrl: anything in, http(s) or same-origin relative out, stable, nothing invisible', () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), hostileString, hostileValue),
      (raw) => {
        const url = safeUrl(raw);
        if (url === null) return;
        assert.ok(isSafeLink(url), url);
        assert.ok(!/[\u0000-\u0020\u007f]/.test(url), `control or space in ${JSON.stringify(url)}`);
        assert.equal(safeUrl(url), url);
      },
    ),
    RUNS,
  );
});

test('hostOf: a host name for an http(s) URL, null for anything else', () => {
  fc.assert(
    fc.property(fc.oneof(fc.webUrl(), hostileString, fc.constant(null)), (raw) => {
      const host = hostOf(raw);
      assert.ok(
        host === null || (host !== '' && !/[\s/]/.test(host)),
        `${JSON.stringify(raw)} gave ${JSON.stringify(host)}`,
      );
      if (raw?.startsWith('http') && safeUrl(raw) === raw) assert.ok(host);
    }),
    RUNS,
  );
});

test('untitledSource: a non-empty string for any language tag', () => {
  fc.assert(
    fc.property(hostileLocale, (locale) => {
      const title = untitledSource(locale);
      assert.ok(typeof title === 'string' && title !== '', `${JSON.stringify(locale)} gave ${String(title)}`);
    }),
    RUNS,
  );
});
