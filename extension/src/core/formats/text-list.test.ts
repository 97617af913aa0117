/**
 * Sources written into the answer's text (text-list.ts, source-lists.ts), in the shapes the
 * backends of corpus/unnamed/build write them, and the answers that end with links but cite none.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createAccumulator } from '../accumulate.js';
import { extractCitations } from '../extract.js';
import { linkMarkers } from '../markers.js';
import type { Citation } from '../model.js';

const answer = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
});

/** The text the first span to hide covers, and its heading. */
const hiddenOf = (text: string, citations: Citation[]) => {
  const hidden = linkMarkers(text, citations).find((s) => s.kind === 'hide');
  return hidden && { text: text.slice(hidden.start, hidden.end), heading: hidden.heading };
};

const read = (text: string) => {
  const found = extractCitations(answer(text));
  assert.equal(found.format, 'text-list', text.slice(0, 200));
  return found.citations;
};

/** What the page shows of the text: each span the core finds, as [its text, its kind, the titles or urls it links to]. */
const spans = (text: string, citations: Citation[]) =>
  linkMarkers(text, citations).map((span) => [
    text.slice(span.start, span.end),
    span.kind,
    span.indices.map((i) => citations[i - 1]!.title),
  ]);

test('Higress: a **References:** block before the answer, [n] [title](url) apart, hidden; [1][2] link to it', () => {
  const block =
    '**References:**\n[1] [Nobel 2024](https://news.example.cn/a.htm)\n\n[2] [Press release](https://nobel.example.org/p/)\n\n[3] [Why physics](https://tech.example.cn/b.shtml)';
  const text = `${block}\n\n诺贝尔物理学奖授予霍普菲尔德和辛顿[1][2]，以表彰机器学习[1][3]。`;
  const citations = read(text);
  assert.deepEqual(
    citations.map((c) => [c.title, c.url, c.refs]),
    [
      ['Nobel 2024', 'https://news.example.cn/a.htm', [1]],
      ['Press release', 'https://nobel.example.org/p/', [2]],
      ['Why physics', 'https://tech.example.cn/b.shtml', [3]],
    ],
  );
  assert.deepEqual(spans(text, citations), [
    [block, 'hide', ['Nobel 2024', 'Press release', 'Why physics']],
    ['[1]', 'marker', ['Nobel 2024']],
    ['[2]', 'marker', ['Press release']],
    ['[1]', 'marker', ['Nobel 2024']],
    ['[3]', 'marker', ['Why physics']],
  ]);
  // Its tail placement, and the heading an operator configures.
  const tail = `Answer [2].\n\n### 数据来源\n[1] [A](https://a.example/)\n\n[2] [B](https://b.example/)`;
  assert.deepEqual(
    spans(tail, read(tail)).map(([written, kind]) => [written, kind]),
    [
      ['[2]', 'marker'],
      ['### 数据来源\n[1] [A](https://a.example/)\n\n[2] [B](https://b.example/)', 'hide'],
    ],
  );
});

test('Hayhooks: "### All Sources:" and "- [n] url" lines close the answer; hidden under its heading', () => {
  const text =
    'Pipelines are graphs [1]. Components declare outputs [2].\n\n### All Sources:\n- [1] https://docs.example.ai/pipelines\n- [2] https://docs.example.ai/components\n';
  const citations = read(text);
  assert.deepEqual(
    citations.map((c) => [c.url, c.refs]),
    [
      ['https://docs.example.ai/pipelines', [1]],
      ['https://docs.example.ai/components', [2]],
    ],
  );
  assert.deepEqual(hiddenOf(text, citations), {
    text: text.slice(text.indexOf('###')).trimEnd(),
    heading: 'All Sources:',
  });
  // The console line names what was read and where.
  assert.equal(
    extractCitations(answer(text)).field,
    `the answer's text: a list of 2 links after the answer, under "All Sources:"`,
  );
});

test('freeaskinternet: "---", "参考资料:", italic "[n. url](url)" lines; nothing cited, all shown, the block hidden', () => {
  const list =
    '*[1. https://roofs.example.org/t](https://roofs.example.org/t)*\n*[2. https://zh.wikipedia.org/wiki/屋顶绿化](https://zh.wikipedia.org/wiki/屋顶绿化)*';
  const text = `屋顶绿化可以降温。\n\n---\n参考资料:\n${list}\n`;
  const citations = read(text);
  assert.deepEqual(
    citations.map((c) => [c.url, c.refs]),
    [
      ['https://roofs.example.org/t', [1]],
      ['https://zh.wikipedia.org/wiki/%E5%B1%8B%E9%A1%B6%E7%BB%BF%E5%8C%96', [2]], // as the link opens it
    ],
  );
  assert.deepEqual(hiddenOf(text, citations), { text: `---\n参考资料:\n${list}`, heading: '参考资料:' });
});

test('kimi-free-api: 【检索 n】 lines before the answer (streamed) or under 搜索结果来自： after it', () => {
  const lines =
    '【检索 1】 [新能源汽车产销](https://auto.example.cn/nev.html)\n【检索 2】 [销量1286.6万辆](https://fin.example.cn/caam.html)';
  for (const text of [
    `${lines}\n\n根据协会的数据，产销分别完成1288.8万辆。`,
    `根据协会的数据。\n\n搜索结果来自：\n${lines.replace('\n', '\n\n')}\n\n`,
  ]) {
    const citations = read(text);
    assert.deepEqual(
      citations.map((c) => [c.title, c.refs]),
      [
        ['新能源汽车产销', [1]],
        ['销量1286.6万辆', [2]],
      ],
    );
    const hidden = linkMarkers(text, citations).filter((s) => s.kind === 'hide');
    assert.equal(hidden.length, 1);
    assert.ok(!text.slice(hidden[0]!.start, hidden[0]!.end).includes('根据'), 'the answer stays');
  }
});

test('glm-free-api and step-free-api: 检索 title(url) ... and 检索 title - url ... lines; 【n†source】 markers', () => {
  const glm =
    '检索 高考报名人数公布(https://edu.example.cn/bm.html) ...\n检索 教育部：1335万(https://news.example.cn/1335.html) ...\n\n报名人数为1335万人【1†source】，减少7万人【2†source】。';
  const citations = read(glm);
  assert.deepEqual(
    citations.map((c) => [c.title, c.url]),
    [
      ['高考报名人数公布', 'https://edu.example.cn/bm.html'],
      ['教育部：1335万', 'https://news.example.cn/1335.html'],
    ],
  );
  assert.deepEqual(spans(glm, citations).slice(1), [
    ['【1†source】', 'marker', ['高考报名人数公布']],
    ['【2†source】', 'marker', ['教育部：1335万']],
  ]);
  const step =
    '检索 国家统计局：GDP - https://stats.example.cn/t.html ...\n检索 增长5.0% - https://news.example.cn/gdp.shtml ...\n\n增长5.0%。';
  assert.deepEqual(
    read(step).map((c) => [c.title, c.url]),
    [
      ['国家统计局：GDP', 'https://stats.example.cn/t.html'],
      ['增长5.0%', 'https://news.example.cn/gdp.shtml'],
    ],
  );
  // Non-streamed, their "title - url" lines under 搜索结果来自：
  const after =
    '增长5.0%。\n\n搜索结果来自：\n国家统计局：GDP - https://stats.example.cn/t.html\n增长5.0% - https://news.example.cn/gdp.shtml';
  assert.equal(read(after).length, 2);
});

test('PandaWiki: [[n](url)] markers, and "---\\n### 引用列表\\n> [n]. [title](url)\\n---" hidden whole', () => {
  const a = 'https://wiki.example.com/node/a';
  const b = 'https://wiki.example.com/node/b';
  const block = `---\n### 引用列表\n> [1]. [固件升级指南](${a})\n> [2]. [升级失败怎么办](${b})\n---`;
  const text = `上传固件包即可[[1](${a})]。完成后自动重启[[2](${b})]。\n\n${block}\n`;
  const citations = read(text);
  assert.deepEqual(
    citations.map((c) => [c.title, c.url]),
    [
      ['固件升级指南', a],
      ['升级失败怎么办', b],
    ],
  );
  assert.deepEqual(spans(text, citations), [
    [`[[1](${a})]`, 'marker', ['固件升级指南']],
    [`[[2](${b})]`, 'marker', ['升级失败怎么办']],
    [block, 'hide', ['固件升级指南', '升级失败怎么办']],
  ]);
});

test('bing-chat-api: a <details> whose summary says it searched, n. [title](url) lines; [^n^] markers', () => {
  const details =
    '<details>\n<summary>\nSearching: [**Rhine length**]\n</summary>\n1. [Rhine - Wikipedia](https://en.wikipedia.org/wiki/Rhine)\n2. [Rhine | Britannica](https://www.britannica.com/place/Rhine-River)\n</details>';
  const text = `${details}\nThe Rhine is 1,230 km long [^1^]. It reaches the North Sea [^2^].\n\n---\n\n**Suggested Questions:**\n- How long is the Danube?`;
  const citations = read(text);
  assert.deepEqual(
    citations.map((c) => [c.title, c.refs]),
    [
      ['Rhine - Wikipedia', [1]],
      ['Rhine | Britannica', [2]],
    ],
  );
  assert.deepEqual(spans(text, citations), [
    [details, 'hide', ['Rhine - Wikipedia', 'Rhine | Britannica']],
    ['[^1^]', 'marker', ['Rhine - Wikipedia']],
    ['[^2^]', 'marker', ['Rhine | Britannica']],
  ]);
});

test('graphrag-local-ui: Title:/Snippet:/Link: records under "DuckDuckGo Search Results:"', () => {
  const text =
    'DuckDuckGo Search Results:\n\nTitle: Eclipse - Wikipedia\nSnippet: A total solar eclipse.\nLink: https://en.wikipedia.org/wiki/Eclipse\n\nTitle: Where & When - NASA\nSnippet: The path of totality.\nLink: https://science.nasa.gov/eclipse/\n\n';
  assert.deepEqual(
    read(text).map((c) => [c.title, c.url, c.snippet]),
    [
      ['Eclipse - Wikipedia', 'https://en.wikipedia.org/wiki/Eclipse', 'A total solar eclipse.'],
      ['Where & When - NASA', 'https://science.nasa.gov/eclipse/', 'The path of totality.'],
    ],
  );
});

test('headings in ten languages, with or without markdown, bold or a colon, say a list is sources', () => {
  for (const heading of [
    'Sources',
    '## References',
    '**Citations:**',
    '### 参考资料',
    '**来源：**',
    '参考文献',
    '出典:',
    '## Quellen',
    '**Références :**',
    'Fuentes:',
    '### Источники',
    '출처',
    'Fontes:',
    '**Fonti**',
    '📚 Sources',
    '### 🔗 **References:**',
  ]) {
    const text = `Une réponse.\n\n${heading}\n- [Un](https://a.example/1)\n- [Deux](https://b.example/2)`;
    const citations = read(text);
    assert.equal(citations.length, 2, heading);
    assert.equal(hiddenOf(text, citations)?.text.startsWith(heading), true, heading);
  }
});

test('a heading and its links on one line, "Sources: [A](url), [B](url)", and only that line is hidden', () => {
  const text =
    'The Rhine is 1,230 km long [1].\n\nSources: [Rhine](https://a.example/rhine), [Britannica](https://b.example/rhine)\n\nAsk me more.';
  const citations = read(text);
  assert.deepEqual(
    citations.map((c) => [c.title, c.refs]),
    [
      ['Rhine', [1]],
      ['Britannica', [2]],
    ],
  );
  assert.equal(
    hiddenOf(text, citations)?.text,
    'Sources: [Rhine](https://a.example/rhine), [Britannica](https://b.example/rhine)',
  );
  // Not a list: a sentence after the colon.
  const sentence = 'The Rhine is long.\n\nSource: the [Rhine Commission](https://a.example/) says so.';
  assert.deepEqual(extractCitations(answer(sentence)), { format: null, citations: [] });
});

test("an item's link may be followed by a summary; a title in bold; a link definition's title in quotes", () => {
  const text =
    'Tides follow the moon [1] and the sun [2][3].\n\n## Sources\n1. [**Tides**](https://a.example/tides_(ocean)) — how the moon pulls\n2. **Solar tides** - https://b.example/sun\n\n[3]: https://c.example/x "Spring tides"';
  assert.deepEqual(
    read(text).map((c) => [c.title, c.url, c.snippet, c.refs]),
    [
      ['Tides', 'https://a.example/tides_(ocean)', 'how the moon pulls', [1]],
      ['Solar tides', 'https://b.example/sun', null, [2]],
      ['Spring tides', 'https://c.example/x', null, [3]], // a link definition after it, the same list
    ],
  );
  // Link definitions no heading names, cited by their numbers.
  const defined = 'Tides follow the moon [1].\n\n[1]: https://a.example/ "Tides"\n[2]: https://b.example/';
  assert.deepEqual(
    read(defined).map((c) => [c.title, c.refs]),
    [
      ['Tides', [1]],
      ['b.example', [2]],
    ],
  );
});

test("under a heading, a title on the item's line and its address on the next", () => {
  const text =
    'The Rhine is long [1][2].\n\n### Sources\n1. **Rhine - Wikipedia**\n   https://en.wikipedia.org/wiki/Rhine\n2. Rhine | Britannica\n   https://www.britannica.com/place/Rhine-River\n';
  const citations = read(text);
  assert.deepEqual(
    citations.map((c) => [c.title, c.refs]),
    [
      ['Rhine - Wikipedia', [1]],
      ['Rhine | Britannica', [2]],
    ],
  );
  assert.equal(hiddenOf(text, citations)?.text, text.slice(text.indexOf('###')).trimEnd());
  // A line that is no title, in the list: the list ends above it, and it stays in sight.
  const noted = 'A [1].\n\nSources:\n- https://a.example/\n- Ask me for more.\n- https://b.example/';
  const spans = linkMarkers(noted, read(noted)).filter((s) => s.kind === 'hide');
  assert.ok(spans.every((s) => !noted.slice(s.start, s.end).includes('Ask me')));
});

test('under a heading, "title url" with a blank between them; without one, such a line is no item', () => {
  const text =
    'The Rhine is long [1][2].\n\n**Sources:**\n[1] Rhine - Wikipedia https://en.wikipedia.org/wiki/Rhine\n[2] Rhine: https://r.example/';
  assert.deepEqual(
    read(text).map((c) => [c.title, c.url, c.refs]),
    [
      ['Rhine - Wikipedia', 'https://en.wikipedia.org/wiki/Rhine', [1]],
      ['Rhine', 'https://r.example/', [2]],
    ],
  );
  const unheaded = 'The Rhine is long.\n\n- Read more at https://en.wikipedia.org/wiki/Rhine';
  assert.equal(extractCitations(answer(unheaded)).format, null);
});

test('a list no heading names, whose numbers the markers cite, is read and left in place', () => {
  const text =
    'Water boils at 100 °C [1] and freezes at 0 °C [2].\n\n1. [Boiling](https://a.example/boil)\n2. [Freezing](https://b.example/freeze)';
  const citations = read(text);
  assert.deepEqual(
    citations.map((c) => [c.title, c.refs]),
    [
      ['Boiling', [1]],
      ['Freezing', [2]],
    ],
  );
  // Its own numbers are no markers; nothing is hidden.
  assert.deepEqual(spans(text, citations), [
    ['[1]', 'marker', ['Boiling']],
    ['[2]', 'marker', ['Freezing']],
  ]);
});

test('numbering: a list from 0 cited from 0, an unnumbered list cited from 0 or from 1', () => {
  const zero = 'A [0], B [1].\n\n[0] [A](https://a.example/)\n[1] [B](https://b.example/)';
  assert.deepEqual(
    read(zero).map((c) => c.refs),
    [[0], [1]],
  );
  const fromZero = 'A [0], B [1].\n\nSources:\n- https://a.example/\n- https://b.example/';
  assert.deepEqual(
    read(fromZero).map((c) => c.refs),
    [[0], [1]],
  );
  const fromOne = 'A [1], B [2].\n\nSources:\n- https://a.example/\n- https://b.example/';
  const citations = read(fromOne);
  assert.deepEqual(
    citations.map((c) => c.refs),
    [[1], [2]],
  );
  assert.deepEqual(
    spans(fromOne, citations).filter(([, kind]) => kind === 'marker'),
    [
      ['[1]', 'marker', ['a.example']],
      ['[2]', 'marker', ['b.example']],
    ],
  );
});

test('an ordinary answer that ends with links or a "See also" list and cites none of them is not read', () => {
  for (const text of [
    'Rust has ownership.\n\nSee also:\n- [The Book](https://doc.rust-lang.org/book/)\n- [Rustlings](https://github.com/rust-lang/rustlings)',
    'Try these:\n\n1. [MDN](https://developer.mozilla.org/)\n2. [web.dev](https://web.dev/)',
    'Useful links\n- https://python.org\n- https://pypi.org',
    'Read more at [the docs](https://docs.example.com) and [the blog](https://blog.example.com).',
    'Further reading:\n\n---\n- [One](https://a.example/)\n- [Two](https://b.example/)',
    'In 2024 [1] was a year.\n\n```\nSources:\n- [1] https://a.example/\n```',
  ]) {
    assert.deepEqual(extractCitations(answer(text)), { format: null, citations: [] }, text);
  }
});

test('streamed: the list in the text read once the chunks are joined, whatever chunk it arrives in', () => {
  const stream = createAccumulator();
  for (const content of ['Graphs [1].', '\n\n### All Sources:\n- [1] ', 'https://docs.example.ai/p\n'])
    stream.add({ choices: [{ index: 0, delta: { content } }] });
  const found = stream.result();
  assert.equal(found.format, 'text-list');
  assert.deepEqual(
    found.citations.map((c) => c.url),
    ['https://docs.example.ai/p'],
  );
});

test('hostile lists: a javascript: link is no source; thousands of lines are read once each', () => {
  assert.deepEqual(extractCitations(answer('A [1].\n\nSources:\n- [1] [x](javascript:alert(1))')), {
    format: null,
    citations: [],
  });
  const many = `A [1].\n\nSources:\n${'- [1] [x](https://a.example/)\n'.repeat(5000)}`;
  const found = extractCitations(answer(many));
  assert.equal(found.format, 'text-list');
  assert.ok(found.citations.length >= 1);
});

test('a list of file names under "Sources", without addresses: documents, a page read as one, the block hidden', () => {
  const block = 'Sources:\n1. employee-handbook.pdf (p. 12)\n2. leave-policy.docx\n3. policies/remote-work.md, page 3';
  const text = `You get 25 days of paid leave a year.\n\n${block}`;
  const citations = read(text);
  assert.deepEqual(
    citations.map((c) => [c.title, c.url, c.kind, c.page, c.refs]),
    [
      ['employee-handbook.pdf', null, 'document', 12, [1]],
      ['leave-policy.docx', null, 'document', null, [2]],
      ['policies/remote-work.md', null, 'document', 3, [3]],
    ],
  );
  assert.deepEqual(hiddenOf(text, citations), { text: block, heading: 'Sources:' });
  // A page written the ways other languages write it.
  const paged = 'Antwort.\n\n**Quellen:**\n- Handbuch.pdf, S. 7\n- 员工手册.pdf（第12页）';
  assert.deepEqual(
    read(paged).map((c) => [c.title, c.page]),
    [
      ['Handbuch.pdf', 7],
      ['员工手册.pdf', 12],
    ],
  );
});

test('a list of titles under "References" is read when the markers cite it, and not when they do not', () => {
  // Before the answer (at its end, "References" and "[n]" lines are LightRAG's, producers/lightrag/format.ts).
  const block = '**References:**\n[1] Annual report 2024, p. 3\n[2] Board minutes March';
  const cited = `${block}\n\nRevenue grew 12% [1], as the board noted [2].`;
  const citations = read(cited);
  assert.deepEqual(
    citations.map((c) => [c.title, c.url, c.kind, c.page, c.refs]),
    [
      ['Annual report 2024', null, 'document', 3, [1]],
      ['Board minutes March', null, 'document', null, [2]],
    ],
  );
  assert.deepEqual(spans(cited, citations), [
    [block, 'hide', ['Annual report 2024', 'Board minutes March']],
    ['[1]', 'marker', ['Annual report 2024']],
    ['[2]', 'marker', ['Board minutes March']],
  ]);
  // Under "Sources" after the answer, numbered from 0 and cited from 0.
  const zero = 'Revenue grew [0].\n\nSources:\n0. Annual report 2024\n1. Board minutes March';
  assert.deepEqual(
    read(zero).map((c) => [c.title, c.refs]),
    [
      ['Annual report 2024', [0]],
      ['Board minutes March', [1]],
    ],
  );
  // The same list that no marker cites: titles alone, not file names, are not read.
  const uncited = `${block}\n\nRevenue grew 12%, as the board noted.`;
  assert.deepEqual(extractCitations(answer(uncited)), { format: null, citations: [] });
});

test('a reading list or a bibliography the user asked for, titles under a heading, is not read', () => {
  for (const text of [
    'Here are some books on Rust.\n\nFurther reading:\n1. The Rust Programming Language (2023)\n2. Rust for Rustaceans.pdf',
    "Here is the bibliography you asked for.\n\n## References\n1. Kleppmann, M. (2017). *Designing Data-Intensive Applications*. O'Reilly.\n2. Abelson, H.; Sussman, G. J. (1996). *Structure and Interpretation of Computer Programs*. MIT Press.",
    'Bibliography:\n- Knuth, D. (1997). The Art of Computer Programming, p. 3\n- Kernighan & Ritchie (1988). The C Programming Language',
    'No heading here.\n\n1. employee-handbook.pdf\n2. leave-policy.docx',
  ]) {
    assert.deepEqual(extractCitations(answer(text)), { format: null, citations: [] }, text);
  }
});
