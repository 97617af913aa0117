/**
 * The core against every scenario of the mock server, both modes: what a user would see —
 * how many sources, their numbers, titles, links, pages, scores and quotes, and which parts
 * of the answer cite which source.
 */

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { answerOf, type MockServer, startMockServer } from '../test-support/mock-server.js';
import { createAccumulator } from './accumulate.js';
import { splitCited } from './cited.js';
import { extractCitations } from './extract.js';
import { linkMarkers } from './markers.js';
import type { Citation } from './model.js';
import { answerTags } from './tags.js';

interface Expected {
  format: string;
  titles: string[];
  /** For each span in the answer: its kind and the citation numbers, and the text it covers starts with. */
  spans: Array<[kind: string, indices: number[], startsWith: string]>;
  check?(citations: Citation[], base: string, text: string): void;
  /** The sources returned but not cited by the text (listed apart); none when all are cited. */
  retrieved?: number[];
  /** The producer sends its sources only when streaming (Brave): its body has none. */
  streamOnly?: boolean;
}

const JINA: Expected = {
  format: 'jina-deepsearch',
  titles: [
    'How many stars are in the Milky Way?',
    'Gaia Data Release 3: the largest stellar census',
    'Structure of the Milky Way',
  ],
  // [^2] and [^3] are one page; the definitions that close the answer are hidden once the list shows them.
  spans: [
    ['marker', [1], '[^1]'],
    ['marker', [2], '[^2]'],
    ['marker', [2], '[^3]'],
    ['marker', [3], '[^4]'],
    ['hide', [1, 2, 3], '[^1]: '],
  ],
  check(citations) {
    assert.match(citations[0]!.quote!.text, /^Astronomers estimate/);
    assert.deepEqual(field(citations, 'refs'), [[1], [2, 3], [4]]);
  },
};

const BRAVE: Expected = {
  format: 'brave',
  titles: [
    '127.0.0.1/static/web/who-physical-activity.html',
    '127.0.0.1/static/web/nhs-exercise-adults.html',
    '127.0.0.1/static/web/cdc-muscle-strengthening.html',
  ], // no title is sent: the address stands for it
  spans: [], // the tags themselves mark the citations
  streamOnly: true,
  check(citations, _base, text) {
    const tags = answerTags(text);
    assert.deepEqual(
      tags.map((t) => t.name),
      ['citation', 'citation', 'citation', 'citation', 'usage'],
    );
    assert.deepEqual(
      tags.filter((t) => t.name === 'citation').map((t) => citations.find((c) => c.url === t.data?.url)?.index),
      [1, 2, 3, 2],
    );
    assert.match(citations[1]!.snippet!, /^Adults should do at least 150 minutes/);
  },
};

/** One field of every citation, in order. */
const field = <K extends keyof Citation>(citations: readonly Citation[], key: K): Array<Citation[K]> =>
  citations.map((c) => c[key]);

const URL_CITATION: Expected = {
  format: 'openai-chat',
  titles: ['Spain win EURO 2024 — match report', '¡Campeones! La Roja suma su cuarta Eurocopa'],
  spans: [
    ['link', [1], '([uefa.com]('],
    ['link', [2], '([rfef.es]('],
  ],
};

const GROK_TITLES = [
  '[Exclusif] Cloudflare rachète VoidZero',
  'VoidZero annonce Vite+ 🚀',
  '𝕏/@youyuxi: Excited to share that VoidZero is joining Cloudf...',
  '127.0.0.1/static/web/rolldown-1-0.html',
];

const EXPECTED: Record<string, Expected> = {
  openrag: {
    format: 'openrag',
    titles: [
      'rapport_2024.pdf',
      'rapport_2024.pdf',
      'Politique de sécurité – édition 2024.md',
      'Les PME en France — édition 2024 | Insee',
    ],
    spans: [],
    check(citations, base) {
      assert.deepEqual(field(citations, 'page'), [3, 7, 1, null]);
      assert.deepEqual(field(citations, 'kind'), ['document', 'document', 'document', 'web']);
      assert.deepEqual(
        citations.map((c) => [c.score, c.scoreKind]),
        [
          [4.81, 'reranker'],
          [2.37, 'reranker'],
          [-0.42, 'reranker'],
          [null, null],
        ],
      );
      // Identity survives the 64-bit Milvus ids: it is the chunk URL.
      assert.equal(citations[0]!.id, `${base}/extract/458812345678901234`);
      assert.equal(citations[0]!.url, `${base}/static/rapport_2024.pdf`);
      assert.match(citations[3]!.snippet!, /progresse de 6 %/);
    },
  },
  'azure-on-your-data': {
    retrieved: [4],
    format: 'azure-on-your-data',
    titles: ['Dog care guide', 'Puppy vaccination schedule', 'Grooming [basics] (short & long coats)', 'nutrition.txt'],
    spans: [
      ['marker', [1], '[doc1]'],
      ['marker', [2], '[doc2]'],
      ['marker', [1], '[doc1]'],
      ['marker', [3], '[doc3]'],
    ],
    check(citations) {
      assert.deepEqual(
        citations.map((c) => [c.score, c.scoreKind]),
        [
          [2.87, 'reranker'],
          [2.41, 'reranker'],
          [1.98, 'reranker'],
          [1.2, 'reranker'],
        ],
      );
      assert.equal(citations[3]!.url, null); // no URL, only a file path
      assert.match(citations[0]!.snippet!, /two walks a day/);
    },
  },
  'openai-url-citation': URL_CITATION,
  'openai-url-citation-flat': URL_CITATION, // the same annotations, flat
  'openai-url-citation-plain': {
    ...URL_CITATION,
    spans: [
      ['link', [1], 'Spain won EURO 2024'],
      ['link', [2], 'It is the country'],
    ],
  },
  'openai-responses': {
    format: 'openai-responses',
    titles: ['Physical activity — WHO fact sheet', 'employee-wellbeing-policy.pdf'],
    spans: [
      ['link', [1], '([who.int]('],
      ['link', [2], ''],
    ],
    check(citations) {
      assert.deepEqual(field(citations, 'kind'), ['web', 'file']);
      assert.equal(citations[1]!.url, null);
    },
  },
  grok2api: {
    retrieved: [4],
    format: 'grok2api',
    titles: GROK_TITLES,
    spans: [
      ['marker', [1], '[[1]]('],
      ['marker', [2], '[[2]]('],
      ['marker', [3], '[[3]]('],
    ],
    check(citations) {
      assert.deepEqual(field(citations, 'kind'), ['web', 'web', 'post', 'web']);
    },
  },
  'grok2api-sources-block': {
    retrieved: [4],
    format: 'grok2api',
    titles: GROK_TITLES,
    spans: [
      ['marker', [1], '[[1]]('],
      ['marker', [2], '[[2]]('],
      ['marker', [3], '[[3]]('],
      ['hide', [], '\n\n## Sources\n[grok2api-sources]: #'],
    ],
  },
  'grok2api-go': {
    retrieved: [3],
    format: 'grok2api-go',
    titles: [
      '合同付款条款指南',
      '127.0.0.1/static/web/late-payment-interest.html',
      '127.0.0.1/static/web/commercial-code-overview.html',
    ],
    spans: [
      ['marker', [1], '[[1]]('],
      ['marker', [2], '[[2]]('],
      ['marker', [1], '[[1]]('],
    ],
    check(citations) {
      assert.equal(citations[0]!.anchors.length, 2); // cited twice: one citation, both spans kept
    },
  },
  perplexity: {
    format: 'perplexity',
    titles: ['Combien d’étoiles compte la Voie lactée ?', 'Gaia’s census of the Milky Way', 'Voie lactée — Wikipédia'],
    spans: [
      ['marker', [1], '[1]'],
      ['marker', [2], '[2]'],
      ['marker', [3], '[3]'],
      ['marker', [2], '[2]'],
    ],
    check(citations) {
      assert.deepEqual(field(citations, 'date'), ['2024-03-01', null, '2023-11-20']);
    },
  },
  'answer-spans': {
    format: 'answer-spans',
    titles: [
      'Politique de conservation — § 4.2',
      'Master services agreement — Annex B (fees)',
      'Master services agreement — Section 9',
    ],
    spans: [
      ['marker', [1], '[1]'],
      ['marker', [2], '[2]'],
      ['marker', [3], '[3]'],
    ],
    check(citations) {
      assert.deepEqual(
        citations.map((c) => [c.page, c.pageEnd]),
        [
          [12, 13],
          [31, null],
          [18, 19],
        ],
      );
      assert.deepEqual(
        citations.map((c) => c.quote?.verbatim),
        [true, true, false],
      );
      for (const citation of citations.slice(0, 2)) {
        const { start, end, text } = citation.quote!;
        assert.equal(citation.snippet!.slice(start!, end!), text); // UTF-16 offsets into the snippet
      }
      assert.deepEqual([citations[2]!.quote!.start, citations[2]!.quote!.end], [null, null]);
    },
  },
  ragflow: {
    retrieved: [4],
    format: 'ragflow',
    titles: ['rapport_2024.pdf', 'rapport_2024.pdf', 'politique-securite.md', 'rapport_2024.pdf'],
    // The stream keeps the model's "[ID: 1]", which RAGFlow repairs to "[ID:1]" only in its body.
    spans: [
      ['marker', [1], '[ID:0]'],
      ['marker', [1], '[ID:0]'],
      ['marker', [2], '[ID'],
      ['marker', [3], '[ID:2]'],
    ],
    check(citations) {
      assert.deepEqual(field(citations, 'page'), [3, 7, null, 5]); // positions: [[page, …]]
      assert.deepEqual(field(citations, 'url'), [null, null, null, null]); // uploaded files: no link is sent
      assert.ok(citations.every((c) => c.scoreKind === 'similarity' && c.score! > 0 && c.score! < 1));
      assert.match(citations[0]!.snippet!, /^Page 3/);
    },
  },
  'ragflow-agent': {
    retrieved: [4],
    format: 'ragflow',
    // Ranked by score: the agent's chunk keys are hashes, with no order of their own.
    titles: ['rapport_2024.pdf', 'rapport_2024.pdf', 'politique-securite.md', 'rapport_2024.pdf'],
    spans: [
      ['marker', [1], '[ID:284]'],
      ['marker', [1], '[ID:284]'],
      ['marker', [2], '[ID:80]'],
      ['marker', [3], '[ID:373]'],
    ],
    check(citations) {
      assert.deepEqual(field(citations, 'refs'), [[284], [80], [373], [469]]);
      assert.deepEqual(field(citations, 'page'), [3, 7, null, 5]);
    },
  },
  'jina-deepsearch': JINA,
  'jina-deepsearch-undated': JINA,
  brave: BRAVE,
  'brave-split-tags': BRAVE,
  'nvidia-rag': {
    format: 'nvidia-rag',
    titles: ['rapport_2024.pdf', 'rapport_2024.pdf', 'rapport_2024.pdf', 'rapport_2024.pdf'],
    spans: [], // no markers: the prompt asks the model not to name its sources
    check(citations) {
      assert.deepEqual(field(citations, 'page'), [3, 3, 7, 5]);
      assert.ok(citations.every((c) => c.scoreKind === 'similarity' && c.score! > 0 && c.score! < 1));
      // The table's content is a base64 image: its description is shown instead.
      assert.match(citations[1]!.snippet!, /^\| Indicateur/);
      assert.ok(citations.every((c) => !/^[A-Za-z0-9+/=]{40,}$/.test(c.snippet ?? '')));
    },
  },
  'groq-compound': {
    retrieved: [4],
    format: 'groq-compound',
    titles: [
      'Spain win EURO 2024 — match report',
      'Spain 2-1 England: Oyarzabal wins it late in Berlin',
      '¡Campeones! La Roja suma su cuarta Eurocopa',
      'EURO 2024 awards: Rodri player of the tournament',
    ],
    spans: [], // cited with markdown links to the results' URLs, linked by the UI
    check(citations, base) {
      assert.equal(citations[0]!.url, `${base}/static/web/uefa-euro-2024-final.html`);
      assert.match(citations[0]!.snippet!, /Spain beat England/);
    },
  },
};

let mock: MockServer;
before(async () => {
  mock = await startMockServer();
});
after(() => mock.stop());

test('every scenario of the mock server has expectations here', async () => {
  const models = (await (await fetch(`${mock.url}/v1/models`)).json()) as { data: Array<{ id: string }> };
  assert.deepEqual(models.data.map((m) => m.id).sort(), Object.keys(EXPECTED).sort());
});

for (const [model, expected] of Object.entries(EXPECTED)) {
  describe(model, () => {
    const check = (citations: Citation[], text: string): void => {
      const host = new URL(mock.url).host;
      assert.deepEqual(
        citations.map((c) => c.title.replace(host, '127.0.0.1')),
        expected.titles,
      );
      assert.deepEqual(
        field(citations, 'index'),
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
      expected.check?.(citations, mock.url, text);
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
