/**
 * fast-check generators of hostile input for the core: values shaped like each producer's wire
 * format, where any field may be missing, null, of the wrong type, a huge or non-finite number,
 * a string with lone surrogates, bidi or zero-width characters, a script URL, JSON inside a
 * string, or nested thousands deep. Structure first, so that the parsers are reached deep
 * inside, not turned away at their first type check.
 */

import fc from 'fast-check';

/** Keys that mean something to JavaScript objects; JSON.parse makes them own properties. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

const NASTY_STRINGS = [
  '',
  ' ',
  '\t\n',
  '\u0000',
  '\u202e',
  '\u200b',
  '\ufeff',
  '\u2028',
  '\ud800',
  '\udfff\ud800',
  '😀',
  '😀'.slice(0, 1),
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  '\u0001javascript:x',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  '//evil.example/x',
  '/\\evil.example',
  '\\\\evil.example',
  '/%2F%2Fevil.example',
  'https://user:pw@e.example/',
  'http://[::1]:99999/',
  'https://e.example/a#\u0000',
  'mailto:a@e.example',
  'file:///etc/passwd',
  '<img src=x onerror=alert(1)>',
  '"><svg onload=alert(1)>',
  '[x](javascript:alert(1))',
  ']](javascript:x)',
  '{}',
  '[]',
  'null',
  '{"sources": [{"url": "javascript:x", "title": 1}]}',
  '{"sources": [',
  '-1',
  '0',
  '3',
  '9007199254740993',
  '1e309',
  'NaN',
  '  42  ',
  ...PROTOTYPE_KEYS,
  'en',
  'fr-FR',
  'zh-CN',
  'zh',
  'ja',
  'toString-x',
  '__proto__-en',
  '[1] [doc2] [[3]](https://e.example/a) 【4】 [^1] [1-3] [2, 3]',
  '\nSources: 1, 2\n',
  'Sources: [1, 2]',
  '\n\n## Sources\n[grok2api-sources]: #\n- [A](https://e.example/a)',
  '`[1]`',
  '```\n[1]\n```',
  'data: {"choices": []}\n\ndata: [DONE]\n\n',
  'event: response.completed\ndata: {"type": "response.completed"}\n\n',
];

const shortHostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.oneof(loneSurrogate, fc.constantFrom('[', ']', '1', ' ', '\n', ':', '/', 'é', '😀')) }),
  fc.constantFrom(...NASTY_STRINGS),
);

/** 20,000 characters: rare, or they would make up most of the time spent. */
const hugeString = fc.constantFrom('x', '[1]', '😀', '\ud800', 'a ').map((unit) => unit.repeat(20_000));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 30, arbitrary: shortHostileString },
  { weight: 1, arbitrary: hugeString },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(), // NaN, ±Infinity, -0 and subnormals included
  fc.constantFrom(
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53),
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    1e308,
    -1,
    0,
    -0,
    0.5,
    1.5,
    1e-7,
  ),
);

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);

const NESTING_KEYS = ['url_citation', 'sources', 'context', 'extra', 'choices'];

function nested(depth: number, inObjects: boolean): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = inObjects ? { [NESTING_KEYS[i % NESTING_KEYS.length]!]: value } : [value];
  return value;
}

/** Arrays or objects nested past what recursive code (and JSON.stringify, at about 5,000) survives.
 * Built once: the core never modifies its input, and building them per case would dominate. */
const deeplyNested: fc.Arbitrary<unknown> = fc.constantFrom(
  ...[100, 1_000, 6_000, 100_000].flatMap((depth) => [nested(depth, false), nested(depth, true)]),
);

/** JSON.stringify, or "null" for what it refuses (undefined, nesting past its stack). */
export const jsonText = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return 'null';
  }
};

export const hostileKey: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), hostileString);

/** Any value JSON (or a socket.io packet) can carry, and a few it cannot (undefined). */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 2, withCrossShrink: true },
    { weight: 16, arbitrary: hostileScalar },
    { weight: 4, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
    {
      weight: 4,
      arbitrary: fc
        .array(fc.tuple(hostileKey, tie('value')), { maxLength: 3 })
        .map((entries) => Object.fromEntries(entries)),
    },
    { weight: 4, arbitrary: tie('value').map(jsonText) }, // JSON inside a string
    { weight: 1, arbitrary: deeplyNested }, // rare: JSON.stringify's stack overflow costs milliseconds
  ),
})).value;

/** A field: usually its real type, sometimes anything at all. */
const field = <T>(good: fc.Arbitrary<T>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: hostileValue });

/** An object of the given fields, each possibly absent, plus stray keys (`__proto__` among them). */
export function shaped(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(fields).map(([key, good]) =>
    fc.option(fc.tuple(fc.constant(key), field(good)), { nil: undefined, freq: 5 }),
  );
  const stray = fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, fc.tuple(hostileKey, hostileValue));
  return fc
    .tuple(fc.tuple(...entries), stray)
    .map(([own, extra]) => Object.fromEntries([...own, extra].filter((entry) => entry !== undefined)));
}

export const listOf = (item: fc.Arbitrary<unknown>): fc.Arbitrary<unknown[]> => fc.array(field(item), { maxLength: 3 });

export const url = fc.oneof(
  fc.constantFrom(
    'https://e.example/a',
    'https://e.example/b',
    'http://e.example/a?q=1#f',
    '/static/doc.pdf',
    '/extract/42',
  ),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  hostileString,
);
export const text = fc.oneof(fc.string({ maxLength: 40 }), hostileString);
export const answer = fc
  .array(
    fc.oneof(
      text,
      fc.constantFrom('[1]', '[2, 3]', '[doc1]', ' [[1]](https://e.example/a)', '【2】', '[^1]', '^[1][2]^'),
      fc.constantFrom('[^1^]', 'x¹²', '<sup>1, 2</sup>', '[[1](https://e.example/a)]', '【1†source】'),
      fc.constantFrom('[6650c0a1b2c3d4e5f6a7b801](CITE)', '【6650c0a1b2c3d4e5f6a7b802】(CITE)'),
    ),
    {
      maxLength: 6,
    },
  )
  .map((parts) => parts.join(''));
export const count = fc.oneof(fc.nat(60), hostileNumber, fc.constantFrom('3', ' 7 ', '-1', '1e3'));
export const score = fc.oneof(fc.double({ min: -20, max: 20, noNaN: true }), hostileNumber);

// url_citation annotations, nested (Chat Completions) or flat (Responses, proxies), and file citations.
const urlCitation = shaped({ url, title: text, start_index: count, end_index: count });
export const annotation = fc.oneof(
  shaped({ type: fc.constant('url_citation'), url_citation: urlCitation }),
  urlCitation.map((flat) => ({ type: 'url_citation', ...flat })),
  shaped({
    type: fc.constantFrom('file_citation', 'container_file_citation', 'file_path'),
    file_id: text,
    filename: text,
    index: count,
    start_index: count,
    end_index: count,
  }),
);
export const chatMessage = (extra: Record<string, fc.Arbitrary<unknown>> = {}) =>
  shaped({ role: fc.constant('assistant'), content: answer, annotations: listOf(annotation), ...extra });
export const chatBody = (message: fc.Arbitrary<unknown>, top: Record<string, fc.Arbitrary<unknown>> = {}) => {
  const choice = fc.oneof(
    shaped({ index: count, message, finish_reason: text }),
    shaped({ index: count, delta: message, finish_reason: text }),
  );
  return shaped({
    id: text,
    object: fc.constantFrom('chat.completion', 'chat.completion.chunk'),
    choices: fc.oneof({ weight: 3, arbitrary: fc.tuple(choice) }, listOf(choice)),
    ...top,
  });
};

const storedCitation = shaped({
  id: text,
  title: text,
  url,
  snippet: text,
  score,
  page: count,
  pageEnd: count,
  scoreKind: fc.constantFrom('similarity', 'reranker', 'bm25', 'raw', 'percent'),
  kind: fc.constantFrom('document', 'web', 'post', 'file', 'x'),
  quote: shaped({ text, start: count, end: count }),
  anchors: listOf(shaped({ start: count, end: count, unit: fc.constantFrom('utf16', 'codePoints', 'utf8', 'bytes') })),
  date: text,
});
const openWebuiSource = shaped({
  source: shaped({ id: text, name: text, url }),
  document: listOf(text),
  metadata: listOf(
    shaped({
      source: fc.oneof(url, text),
      name: text,
      source_url: url,
      url,
      file_name: text,
      file_id: text,
      page: count,
      owc: storedCitation,
    }),
  ),
  distances: listOf(score),
});

// A list of sources written in the answer's text (source-lists.ts), under a heading or none,
// before or after the answer, in each line shape the text-list reader takes.
const sourceListText = fc
  .tuple(
    fc.constantFrom(
      '',
      '### All Sources:',
      '**References:**',
      '---\n参考资料:',
      '搜索结果来自：',
      '<details>\n<summary>Searching</summary>',
      '```\nSources:',
    ),
    fc.array(
      fc.oneof(
        fc
          .tuple(
            fc.constantFrom('- ', '* ', '1. ', '', '> ', '【检索 2】 ', '检索 '),
            fc.constantFrom('[1] ', '[0]. ', '', '*['),
            fc.oneof(text, url),
            fc.constantFrom('', '(', ' - ', '](', ') ...', '\nTitle: ', '\nLink: '),
            fc.oneof(text, url),
          )
          .map((parts) => parts.map(String).join('')),
        text,
      ),
      { maxLength: 6 },
    ),
    fc.boolean(),
  )
  .chain(([heading, lines, before]) =>
    answer.map((a) => {
      const list = `${heading}\n${lines.join('\n')}\n`;
      return before ? `${list}\n${a}` : `${a}\n\n${list}`;
    }),
  );
const sourceLike = shaped({
  url,
  title: text,
  name: text,
  document_name: text,
  filename: text,
  content: text,
  snippet: text,
  text,
});

/** The wire shapes of the core's own readers (core/formats/), keyed by the format's name; a named
 * producer's is in its folder, producers/<name>/shape.ts (test-support/wire-formats.ts joins them). */
export const CORE_WIRE_FORMATS: Record<string, fc.Arbitrary<unknown>> = {
  'openai-chat': chatBody(chatMessage()),
  'text-list': chatBody(chatMessage({ content: sourceListText })),
  generic: chatBody(chatMessage({ references: listOf(sourceLike) }), {
    results: listOf(sourceLike),
    documents: listOf(sourceLike).map(jsonText),
  }),
  'open-webui': fc.oneof(
    shaped({ sources: listOf(openWebuiSource) }),
    shaped({ type: fc.constantFrom('source', 'citation'), data: openWebuiSource }),
    openWebuiSource,
  ),
};

/** JSON as it travels: what JSON.parse gives back (no undefined, NaN or -0). */
export const asJson = (value: unknown): unknown => JSON.parse(jsonText(value));

/** Server-sent events as a producer writes them, sometimes cut short or with CRLF lines. */
export const sseText = (chunks: unknown[], cut: number, crlf: boolean): string => {
  const events = chunks.map((chunk) => {
    const type = typeof chunk === 'object' && chunk !== null ? (chunk as { type?: unknown }).type : undefined;
    return `${typeof type === 'string' ? `event: ${type}\n` : ''}data: ${jsonText(chunk)}\n\n`;
  });
  const whole = [...events, 'data: [DONE]\n\n'].join('');
  return (crlf ? whole.replace(/\n/g, '\r\n') : whole).slice(0, whole.length - cut);
};

/** Answer text with every kind of marker, code spans, source blocks and hostile text between them. */
export const markerText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      shortHostileString,
      fc.constantFrom(
        '[1]',
        '[2, 3]',
        '[1-3]',
        '[1 - 9999]',
        '[doc2]',
        ' [[1]](https://e.example/a)',
        '[1](https://e.example/b)',
        '【2】',
        '【4:0†source】',
        '[^1]',
        '[^1]:',
        '^[1]^',
        '^[2][3]^',
        '^',
        '\n[Sources: 1, 2]',
        '\nSources: [1, 2]\n',
        'Source: 3.',
        '\nSources: [1, 2\n, 3]',
        '\n\n## Sources\n[grok2api-sources]: #\n',
        '\n\n### References\n\n- [1] a.md\n',
        '\n[KG] Entity',
        '`[1]`',
        '```\n[2]\n```',
        '```',
        '\n',
        '【',
        '】',
        '[',
        ']',
        '(',
        ')',
        '😀',
        '\ud800',
      ),
    ),
    { maxLength: 12 },
  )
  .chain((parts) =>
    fc.oneof(
      { weight: 30, arbitrary: fc.constant(parts.join('')) },
      hugeString.map((huge) => parts.join(huge)),
    ),
  );

/** The language a user picked, as Open WebUI stores it (untrusted: localStorage). */
export const hostileLocale: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constantFrom(undefined, 'en', 'fr', 'fr-FR', 'de-DE', 'es', 'zh-CN', 'zh-TW', 'ja', 'ja-JP', 'pt-BR'),
  hostileString,
);
