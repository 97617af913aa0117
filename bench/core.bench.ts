/**
 * `npm run bench:core`: the core alone, on inputs the size of real worst cases. A benchmark,
 * not a test: it prints numbers and targets and never fails.
 */

import { performance } from 'node:perf_hooks';

import {
  bibliography,
  bibtex,
  chatMarkdown,
  cslJson,
  createAccumulator,
  extractCitations,
  linkMarkers,
  ris,
  splitCited,
  withSourcesAfterAnswers,
} from '../extension/src/core/index.js';
import { createHub } from '../extension/src/capture/hub.js';
import { watchSources } from '../extension/src/capture/source-warnings.js';
import { readStoredChat } from '../extension/src/capture/stored-chat.js';
import { longChat } from '../extension/test-support/long-chat.js';

const RUNS = 50;

function measure(name: string, targetMs: number, setup: () => () => unknown): void {
  report(name, targetMs, () => {
    const run = setup();
    const start = performance.now();
    run();
    return performance.now() - start;
  });
}

/** Prints the median and p95 of what `sample` measures, in ms, over RUNS runs. */
function report(name: string, targetMs: number, sample: () => number): void {
  for (let i = 0; i < 5; i++) sample(); // warm up the JIT
  const times = Array.from({ length: RUNS }, sample);
  times.sort((a, b) => a - b);
  const median = times[Math.floor(RUNS / 2)]!;
  const p95 = times[Math.floor(RUNS * 0.95)]!;
  const verdict = median <= targetMs ? 'ok' : 'MISSED';
  console.log(
    `${name.padEnd(52)} median ${median.toFixed(3).padStart(8)} ms   p95 ${p95.toFixed(3).padStart(8)} ms   ` +
      `target ≤ ${targetMs} ms   ${verdict}`,
  );
}

// 1. A grok2api body with 400 search sources, each cited once in the text.
const grokText: string[] = [];
const annotations: unknown[] = [];
const searchSources: unknown[] = [];
for (let i = 1; i <= 400; i++) {
  const url = `https://news.example/article-${i}`;
  const sentence = `Fact number ${i} is stated here, l’été 😀.`;
  const marker = ` [[${i}]](${url})`;
  const before = [...grokText.join('')].length + [...sentence].length;
  grokText.push(sentence + marker);
  annotations.push({
    type: 'url_citation',
    url_citation: { url, title: `Article ${i}`, start_index: before, end_index: before + [...marker].length },
  });
  searchSources.push({ url, title: `Article ${i}`, type: i % 10 === 0 ? 'x_post' : 'web' });
}
const grokBody = {
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  model: 'grok-4',
  choices: [
    { index: 0, message: { role: 'assistant', content: grokText.join(''), annotations }, finish_reason: 'stop' },
  ],
  search_sources: searchSources,
};
measure('extractCitations: grok2api body, 400 sources', 1, () => () => extractCitations(grokBody));
// The same answer's spans: its 400 markers and the 400 offset spans of its annotations, in code
// points over a text that is not ASCII (anchorSpans and toUtf16 walk it).
const grokCitations = extractCitations(grokBody).citations;
measure('linkMarkers: grok2api answer, 400 markers and offsets', 5, () => () =>
  linkMarkers(grokText.join(''), grokCitations),
);

// 2. An OpenRAG stream of 2,000 chunks: "{}" until the last content chunk and the finish chunk.
const sources = JSON.stringify({
  sources: Array.from({ length: 20 }, (_, i) => ({
    source_type: 'document',
    file_url: `https://rag.example/static/doc${i}.pdf`,
    chunk_url: `https://rag.example/extract/${458812345678901234n + BigInt(i)}`,
    filename: `doc${i}.pdf`,
    page: i + 1,
    relevance_score: 5 - i / 4,
  })),
});
const chunk = (content: string | null, extra: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'openrag',
  choices: [
    {
      index: 0,
      delta: content === null ? {} : { content },
      logprobs: null,
      finish_reason: content === null ? 'stop' : null,
    },
  ],
  extra,
});
const openragChunks = [
  ...Array.from({ length: 1998 }, (_, i) => chunk(` word${i}`, '{}')),
  chunk(' end.', sources),
  chunk(null, sources),
];
measure('createAccumulator: OpenRAG stream, 2,000 chunks', 20, () => () => {
  const accumulator = createAccumulator();
  for (const c of openragChunks) accumulator.add(c);
  return accumulator.result();
});

// 3. A 20,000-character answer with 300 markers of mixed syntax.
const perplexity = extractCitations({
  search_results: Array.from({ length: 30 }, (_, i) => ({ url: `https://s.example/${i}`, title: `S${i}` })),
});
const forms = (n: number) =>
  [`[${n}]`, `[${n}, ${(n % 30) + 1}]`, `[doc${n}]`, `【${n}】`, `[${n}][${(n % 30) + 1}]`][n % 5]!;
let answer = '';
for (let i = 0; i < 300; i++)
  answer += 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiu. '.slice(0, 62) + forms((i % 30) + 1);
answer = answer.padEnd(20_000, ' filler text');
measure(
  `linkMarkers: ${answer.length.toLocaleString('en')} characters, 300 markers`,
  5,
  () => () => linkMarkers(answer, perplexity.citations),
);

// 4. Quote-grounded citations whose quotes almost match: 10 of them, each 3,000 words of its
// content with the last word changed (a near miss, so every one is searched to the end).
const words = Array.from({ length: 3000 }, (_, i) => `mot${i % 113}`);
const nearMisses = Array.from({ length: 10 }, (_, i) => ({
  section_id: `${i + 1}`,
  title: `Section ${i + 1}`,
  quote_start: -1,
  quote_end: -1,
  content: words.join(i % 2 ? ' ' : '\n  '),
  quote: [...words.slice(0, -1), 'autre'].join(' '),
}));
const nearMissBody = { choices: [{ message: { role: 'assistant', content: 'Réponse [1].' } }], citations: nearMisses };
measure('extractCitations: 10 quotes of 3,000 words, near misses', 5, () => () => extractCitations(nearMissBody));

// 5. A 1 MB adversarial answer, as a prompt-injected page or a hostile backend can make one: "Sources:"
// lines padded with long runs of blanks and tabs that fail at their end, 44,000 code spans among
// 44,000 markers, 24,000 "Sources:" lines, a footnote definition of blanks ending in U+2028, and 3,000
// url_citations on one URL over 120 KB of blanks. Read as the page reads a finished answer: its
// citations, the spans to link in it, which sources it cites.
const hostile = [
  'Claim [1].\n',
  ...Array.from({ length: 50 }, (_, i) => `${i % 2 ? '[Sources]:' : 'Sources:'}${' \t'.repeat(1000)}x\n`),
  `Sources:${' '.repeat(50_000)}[\n`,
  '`c` [2] '.repeat(44_000),
  '\n',
  'Sources: [1, 2]\n'.repeat(24_000),
  ' '.repeat(120_000),
  'Last claim [[1]](https://h.example/1).\n\n',
  `[^1]:${' '.repeat(50_000)}\u2028`,
].join('');
const hostileBody = {
  id: 'chatcmpl-hostile',
  object: 'chat.completion',
  model: 'grok-4',
  choices: [
    {
      index: 0,
      message: {
        role: 'assistant',
        content: hostile,
        annotations: Array.from({ length: 3000 }, (_, i) => ({
          type: 'url_citation',
          url_citation: {
            url: 'https://h.example/1',
            title: 'H1',
            start_index: hostile.length - 150_000 + i,
            end_index: hostile.length,
          },
        })),
      },
      finish_reason: 'stop',
    },
  ],
  search_sources: Array.from({ length: 3 }, (_, i) => ({ url: `https://h.example/${i + 1}`, title: `H${i + 1}` })),
};
measure(`adversarial answer of ${(hostile.length / 2 ** 20).toFixed(1)} MB: extract, link, split`, 100, () => () => {
  const { citations } = extractCitations(hostileBody);
  splitCited(hostile, citations, linkMarkers(hostile, citations));
});

// 6. 200 KB of crafted text exported in every format, as "Export → Whole chat" writes it: an answer
// of runs of blanks before its markers, one of 50,000 (what made the Markdown export quadratic:
// 200,000 froze the tab for 42 s), lines of footnote syntax and fences that the export escapes or
// closes (chatText), and the sources
// its body lists (the most a body gives), whose titles, dates, snippets and file names are
// braces, backslashes and line breaks of every kind.
const crafted = (i: number, length: number) =>
  `{}\\ "} x = {${'\u2028\u0085\r\n\t '.repeat(3)}%0D%0A`.repeat(Math.ceil(length / 30)).slice(0, length) + i;
const exportAnswer = [
  `Claim${' '.repeat(50_000)}x [1]`,
  ...Array.from({ length: 300 }, (_, i) => `Claim ${i}${' '.repeat(100)}[${i + 2}]`),
  ...Array.from({ length: 2000 }, (_, i) => (i % 2 ? '  ```' : `[ ^1]: \\[^2] ^[x] [${i % 50}][x]`)),
].join('\n');
const exportBody = {
  choices: [{ index: 0, message: { role: 'assistant', content: exportAnswer } }],
  search_results: Array.from({ length: 1000 }, (_, i) => ({
    title: crafted(i, 30),
    url: i % 2 ? `https://s.example/${i}?q={x}\\` : `/api/v1/files/${i}/content%0D%0AER%20%20-%20`,
    date: i % 3 ? '2024T},a=1' : '2024-05-01',
    snippet: crafted(i, 40),
  })),
};
const { citations: exported } = extractCitations(exportBody);
const exportedAnswers = [{ question: 'Which sources?', text: exportAnswer, citations: exported }];
const exportSize =
  exportAnswer.length +
  exportBody.search_results.reduce((sum, r) => sum + r.title.length + r.url.length + r.date.length + r.snippet.length, 0);
const exportWords = {
  answer: (n: number) => `Answer ${n}`,
  sources: 'Sources',
  retrieved: 'Retrieved, not cited',
  page: () => null,
  link: (c: { url: string | null }) => c.url,
};
const day = new Date('2026-11-27T10:00:00Z');
const absolute = (url: string) => new URL(url, 'https://owui.example/c/1').href;
measure(`export: ${Math.round(exportSize / 1000)} KB of crafted text, ${exported.length} sources, every format`, 100, () => () => {
  chatMarkdown('Chat', exportedAnswers, exportWords);
  const entries = bibliography(exportedAnswers, absolute);
  bibtex(entries, day);
  ris(entries, day);
  cslJson(entries, day);
});

// 7. Open WebUI's "Download → Plain text" of a 200 KB chat rewritten with each answer's sources: a
// question of long runs of message headers and 100 answers made of them (what made the rewrite
// quadratic: every place an answer's text occurs was searched), the sources of 6.
const headers = '### ASSISTANT\n'.repeat(8_500);
const downloadAnswers = Array.from({ length: 100 }, (_, i) => ({ text: `${headers.slice(0, 14 * i)}${i}`, citations: exported }));
const downloaded = [`### USER\n${headers}x`, ...downloadAnswers.map((a) => `### ASSISTANT\n${a.text}`)].join('\n\n');
const sourceLines = (citations: readonly { title: string }[]) => citations.map((c) => c.title).join('\n');
measure(`download: ${Math.round(downloaded.length / 1000)} KB chat file, 100 answers, sources put back`, 100, () => () =>
  withSourcesAfterAnswers(downloaded, downloadAnswers, sourceLines),
);

// 8. Opening a chat of 200 answers of 20 stored sources (the chat `make bench` opens, figure 5), as
// capture reads the copy the page fetched: its JSON parsed (one task: Response.json()), then its
// answers recorded in slices (the longest task of ours among them), then one answer's stored
// sources parsed when it is drawn.
const chatText = JSON.stringify(longChat(200));
const chatSize = `${(chatText.length / 2 ** 20).toFixed(1)} MB`;
measure(`open a chat of 200 answers (${chatSize}): JSON.parse of its copy`, 16, () => () => JSON.parse(chatText));
const slices: Array<() => void> = [];
(globalThis as { scheduler?: unknown }).scheduler = { postTask: (slice: () => void) => void slices.push(slice) };
const openedHub = () => {
  const hub = createHub(() => 'en');
  watchSources(hub, (warn) => warn);
  return hub;
};
report('open a chat of 200 answers: longest slice of its read', 16, () => {
  const hub = openedHub();
  const chat = JSON.parse(chatText);
  let longest = 0;
  for (let slice: (() => void) | undefined = () => readStoredChat(hub, chat); slice; slice = slices.shift()) {
    const start = performance.now();
    slice();
    longest = Math.max(longest, performance.now() - start);
  }
  return longest;
});
report('open a chat of 200 answers: one answer drawn, its sources parsed', 2, () => {
  const hub = openedHub();
  readStoredChat(hub, JSON.parse(chatText));
  for (let slice = slices.shift(); slice; slice = slices.shift()) slice();
  const last = hub.ids().at(-1)!;
  const start = performance.now();
  void hub.view(last)?.citations;
  return performance.now() - start;
});
