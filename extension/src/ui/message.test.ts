import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';
import { citation } from '../../test-support/citation.js';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/' });
const { applyToMessage, passOver } = await import('./message.js');

/** An answer as Open WebUI 0.12 draws it: its markdown rendered inside the message's container. */
function answer(id: string, html: string): HTMLElement {
  const message = document.createElement('div');
  message.id = `message-${id}`;
  message.innerHTML = `<div class="chat-assistant"><div id="response-content-container"><div class="markdown-prose">${html}</div></div></div>`;
  document.body.append(message);
  return message;
}

test('a link to a URL two sources share gets the button of the first, the one the list shows as cited', () => {
  const url = 'https://example.com/report';
  const sources = [citation(1, { url, refs: [1] }), citation(2, { url, refs: [2] })];
  const message = answer('m1', `<p>See <a href="${url}">the report</a>.</p>`);
  applyToMessage(message, {
    messageId: 'm1',
    citations: sources,
    text: `See [the report](${url}).`,
    done: true,
    live: true,
  });
  const numbers = (selector: string) =>
    [...message.querySelectorAll<HTMLElement>(selector)].map((button) => Number(button.dataset.owcIndex));
  assert.deepEqual(numbers('.owc-sources .owc-source'), [1]);
  assert.match(message.querySelector('.owc-retrieved summary')?.textContent ?? '', /^1 more/);
  assert.deepEqual(numbers('.owc-cite'), [1]);
});

test("a link to a source's id (Writer's [name](file id)), drawn as a relative link, becomes that source's button", async () => {
  const { extractCitations } = await import('../core/index.js');
  const [handbook, faq, rules] = [
    '7b1e4c2a-90d3-4f6e-b8a5-1c2d3e4f5a6b',
    'e2a9f0c4-3b5d-4c7e-8f91-0a1b2c3d4e5f',
    '规则-9',
  ];
  const text = `Leave is 25 days [Employee-Handbook-2026.pdf](${handbook}), five carry over [Leave-Policy-FAQ.docx](${faq}) [规则.pdf](${rules}).`;
  const files = [handbook, faq, rules].map((fileId) => ({ fileId, text: `About ${fileId}.`, cite: fileId }));
  const { citations } = extractCitations({
    choices: [{ message: { role: 'assistant', content: text, graph_data: { references: { files } } } }],
  });
  // As Open WebUI 0.12 draws a markdown link: its target as the href (no scheme: left as written).
  const link = (id: string, name: string) => `<a href="${id}" target="_blank" rel="nofollow"><!---->${name}<!----></a>`;
  const message = answer(
    'w1',
    `<p>Leave is 25 days ${link(handbook, 'Employee-Handbook-2026.pdf')}, five carry over ${link(faq, 'Leave-Policy-FAQ.docx')} ` +
      // marked percent-encodes a target as it makes the link (its cleanUrl: encodeURI).
      `${link(encodeURI(rules), '规则.pdf')}.</p>`,
  );
  applyToMessage(message, { messageId: 'w1', citations, text, done: true, live: true });
  const prose = message.querySelector('.markdown-prose > p')!;
  assert.deepEqual(
    [...prose.querySelectorAll<HTMLElement>('.owc-cite')].map((b) => Number(b.dataset.owcIndex)),
    [1, 2, 3],
  );
  const seen = [...prose.childNodes].filter((n) => !(n instanceof Element && n.matches('.owc-hidden')));
  assert.equal(seen.map((n) => n.textContent).join(''), 'Leave is 25 days 1, five carry over 2 3.');
});

test('a numbered link to a page no source has is the button of the source its number names, as the core reads it', async () => {
  const { linkMarkers } = await import('../core/index.js');
  const sources = [citation(1, { url: 'https://a.example/x' }), citation(2, { url: 'https://b.example/y' })];
  const text =
    'Long [1](https://a.example/x?utm=chat), busy [[2](https://b.example/z)], old [[9](https://c.example/)].';
  const markers = linkMarkers(text, sources).filter((s) => s.kind === 'marker');
  assert.deepEqual(
    markers.map((s) => s.indices),
    [[1], [2]],
  );
  const message = answer(
    'u1',
    '<p>Long <a href="https://a.example/x?utm=chat">1</a>, busy [<a href="https://b.example/z">2</a>], ' +
      'old [<a href="https://c.example/">9</a>].</p>',
  );
  applyToMessage(message, { messageId: 'u1', citations: sources, text, done: true, live: true });
  const prose = message.querySelector('.markdown-prose > p')!;
  assert.deepEqual(
    [...prose.querySelectorAll<HTMLElement>('.owc-cite')].map((b) => Number(b.dataset.owcIndex)),
    [1, 2],
  );
  const shown = [...prose.childNodes].filter((n) => !(n instanceof Element && n.matches('.owc-hidden')));
  assert.equal(shown.map((n) => n.textContent).join(''), 'Long 1, busy 2, old [9].');
});

test('a paragraph of more markers than one step links them all, and one rewritten between steps is left whole', () => {
  const text = Array.from({ length: 100 }, (_, i) => `Claim ${i} [1].`).join(' ');
  const view = { messageId: 'm2', citations: [citation(1)], text, done: true, live: true };
  const whole = answer('m2', `<p>${text}</p>`);
  applyToMessage(whole, view);
  assert.equal(whole.querySelectorAll('.owc-cite').length, 100);

  // Open WebUI rewrites the paragraph while the pass is cut between two steps.
  const rewritten = answer('m3', `<p>${text}</p>`);
  const steps = passOver(rewritten, { ...view, messageId: 'm3' });
  while (rewritten.querySelectorAll('.owc-cite').length === 0) assert.equal(steps.next().done, false);
  const rest = [...rewritten.querySelector('p')!.childNodes].filter((node) => node instanceof Text).at(-1) as Text;
  rest.data = 'Rewritten.';
  assert.doesNotThrow(() => [...steps]);
  assert.ok(rewritten.querySelectorAll('.owc-cite').length < 100);
  assert.match(rewritten.querySelector('p')?.textContent ?? '', /Rewritten\.$/);
});

test('an answer whose sources could not be read says so where its list would be; one without sources says nothing', async () => {
  const { createHub } = await import('../capture/hub.js');
  const { routeEvent } = await import('../capture/events.js');
  const { createPacketReader } = await import('../capture/socket.js');
  const hub = createHub(() => 'en');
  const reader = createPacketReader(
    (e) => routeEvent(hub, e as never, () => {}),
    () => {},
    () => {},
    { unread: (id) => hub.unread(id) },
  );
  const frame = (id: string, data: unknown, type = 'chat:completion') =>
    `42${JSON.stringify(['events', { chat_id: 'c1', message_id: id, data: { type, data } }])}`;
  const finished = (id: string) => frame(id, { done: true, content: 'The answer.' });
  // A relayed chunk Python wrote with a NaN score (no JSON); an OpenRAG `extra` that is no JSON; no sources at all.
  const relayed = frame('u1', { extra: '{}' }, 'owui-citations:chunk').replace('"{}"', 'NaN');
  const chunk = (extra: string) => ({ object: 'chat.completion.chunk', extra, choices: [{ index: 0, delta: {} }] });
  for (const packet of [relayed, finished('u1'), frame('u2', chunk('{"sources": 12')), finished('u2')]) reader(packet);
  for (const packet of [frame('n1', { choices: [{ index: 0, delta: { content: 'x' } }] }), finished('n1')])
    reader(packet);
  await new Promise((resolve) => setTimeout(resolve, 0));
  const notice = (id: string) => {
    const message = answer(id, '<p>The answer.</p>');
    applyToMessage(message, hub.view(id)!);
    return message.querySelector('.owc-missing')?.textContent ?? null;
  };
  assert.equal(notice('u1'), 'Sources were sent with this answer, but they could not be read.');
  assert.equal(notice('u2'), 'Sources were sent with this answer, but they could not be read.');
  assert.equal(notice('n1'), null);
});

test('an answer whose stream was cut by a dropped connection says its sources did not arrive', async () => {
  const { createHub } = await import('../capture/hub.js');
  const hub = createHub(() => 'en');
  hub.asked('i1');
  hub.reconnected();
  hub.finish('i1', 'The answer.');
  const message = answer('i1', '<p>The answer.</p>');
  applyToMessage(message, hub.view('i1')!);
  assert.equal(
    message.querySelector('.owc-missing')?.textContent,
    'The connection dropped while this answer came in: its sources, if it had any, did not arrive.',
  );
});

test('a list of sources written in the text is hidden where Open WebUI drew it, before or after the answer, and only it', async () => {
  const { extractCitations } = await import('../core/index.js');
  const shown = (id: string, text: string, html: string) => {
    const message = answer(id, html);
    const { citations } = extractCitations({ choices: [{ message: { role: 'assistant', content: text } }] });
    applyToMessage(message, { messageId: id, citations, text, done: true, live: true });
    const visible = [...message.querySelectorAll('.markdown-prose > *')].filter((b) => !b.closest('.owc-hidden'));
    return {
      visible: visible.filter((b) => !b.matches('.owc-sources, .owc-retrieved')).map((b) => b.textContent),
      buttons: message.querySelectorAll('.markdown-prose > p .owc-cite').length,
    };
  };
  // Higress, before the answer: a bold heading and items apart, each a paragraph.
  const [a, b, c] = [
    'https://news.example.cn/a.htm',
    'https://nobel.example.org/p/',
    'https://tech.example.cn/b.shtml',
  ];
  const head = `**References:**\n[1] [Nobel 2024](${a})\n\n[2] [Press release](${b})\n\n[3] [Why physics](${c})\n\n授予霍普菲尔德和辛顿[1][2]，以表彰机器学习[1][3]。`;
  const headHtml =
    `<p><strong>References:</strong><br>[1] <a href="${a}">Nobel 2024</a></p><p>[2] <a href="${b}">Press release</a></p>` +
    `<p>[3] <a href="${c}">Why physics</a></p><p>授予霍普菲尔德和辛顿[1][2]，以表彰机器学习[1][3]。</p>`;
  assert.deepEqual(shown('t1', head, headHtml), {
    visible: ['授予霍普菲尔德和辛顿12，以表彰机器学习13。'],
    buttons: 4,
  });
  // The same, the list's numbers drawn as Open WebUI's own buttons, each naming its source (it has the
  // sources stored): its blocks read as the markdown's lines all the same.
  const own = (title: string) => `<button><span class="line-clamp-1">${title}</span></button>`;
  const ownHtml =
    `<p><strong>References:</strong><br>${own('Nobel 2024')} <a href="${a}">Nobel 2024</a></p>` +
    `<p>${own('Press release')} <a href="${b}">Press release</a></p>` +
    `<p>${own('Why physics')} <a href="${c}">Why physics</a></p><p>授予霍普菲尔德和辛顿[1][2]，以表彰机器学习[1][3]。</p>`;
  assert.deepEqual(shown('t5', head, ownHtml), {
    visible: ['授予霍普菲尔德和辛顿12，以表彰机器学习13。'],
    buttons: 4,
  });
  // PandaWiki, after the answer: separators, a heading and a quote of links, all hidden.
  const [x, y] = ['https://wiki.example.com/node/a', 'https://wiki.example.com/node/b'];
  const tail = `即可[[1](${x})]。重启[[2](${y})]。\n\n---\n### 引用列表\n> [1]. [固件升级指南](${x})\n> [2]. [升级失败怎么办](${y})\n---\n`;
  const tailHtml =
    `<p>即可[<a href="${x}">1</a>]。重启[<a href="${y}">2</a>]。</p><hr><h3>引用列表</h3>` +
    `<blockquote><p>[1]. <a href="${x}">固件升级指南</a><br>[2]. <a href="${y}">升级失败怎么办</a></p></blockquote><hr>`;
  const pandawiki = shown('t2', tail, tailHtml);
  assert.equal(pandawiki.visible.length, 1);
  // Its [[n](url)] markers: the link becomes the button, its brackets go with it.
  const prose = document.querySelector('#message-t2 .markdown-prose > p')!;
  const seen = [...prose.childNodes].filter((n) => !(n instanceof Element && n.matches('.owc-hidden')));
  assert.equal(seen.map((n) => n.textContent).join(''), '即可1。重启2。');
  assert.equal(pandawiki.buttons, 2);
  // An answer whose paragraph follows a list that no heading names: the list stays, the answer too.
  const cited = `Boils at 100 °C [1].\n\n1. [Boiling](${a})`;
  const citedHtml = `<p>Boils at 100 °C [1].</p><ol><li><a href="${a}">Boiling</a></li></ol>`;
  assert.deepEqual(shown('t3', cited, citedHtml).visible, ['Boils at 100 °C 1.', 'Boiling1']);
  // A heading of its own before the answer: what follows the list is the answer, not more of it.
  const headed = `### 数据来源\n\n[1] [Nobel 2024](${a})\n\nThe prize went to Hopfield [1].`;
  const headedHtml = `<h3>数据来源</h3><p>[1] <a href="${a}">Nobel 2024</a></p><p>The prize went to Hopfield [1].</p>`;
  assert.deepEqual(shown('t4', headed, headedHtml).visible, ['The prize went to Hopfield 1.']);
});

test('a list of file names or titles without addresses under "Sources" is hidden where Open WebUI drew it, and only it', async () => {
  const { extractCitations } = await import('../core/index.js');
  const cases = [
    {
      id: 'f1',
      text: 'Leave is 25 days.\n\nSources:\n1. employee-handbook.pdf (p. 12)\n2. leave-policy.docx',
      html: '<p>Leave is 25 days.</p><p>Sources:</p><ol><li>employee-handbook.pdf (p. 12)</li><li>leave-policy.docx</li></ol>',
    },
    {
      id: 'f2',
      text: '**References:**\n[1] Annual report 2024, p. 3\n[2] Board minutes March\n\nRevenue grew [1], the board noted [2].',
      html: '<p><strong>References:</strong><br>[1] Annual report 2024, p. 3<br>[2] Board minutes March</p><p>Revenue grew [1], the board noted [2].</p>',
    },
  ];
  for (const { id, text, html } of cases) {
    const { citations } = extractCitations({ choices: [{ message: { role: 'assistant', content: text } }] });
    assert.equal(citations.length, 2, id);
    const message = answer(id, html);
    applyToMessage(message, { messageId: id, citations, text, done: true, live: true });
    const visible = [...message.querySelectorAll('.markdown-prose > *')].filter(
      (b) => !b.closest('.owc-hidden') && !b.matches('.owc-sources, .owc-retrieved'),
    );
    assert.deepEqual(
      visible.map((b) => b.textContent),
      [id === 'f1' ? 'Leave is 25 days.' : 'Revenue grew 1, the board noted 2.'],
      id,
    );
  }
});

test('a list a text declaration reads is hidden where Open WebUI drew it, under a heading no reader knows or after ---', async () => {
  const { extractCitations } = await import('../core/index.js');
  const { validateDeclarations } = await import('../core/declared.js');
  const url = 'https://de.example/Rhein';
  const cases = [
    { id: 'd1', sources: { text: { heading: 'Weiterlesen' } }, list: '### Weiterlesen', drawn: '<h3>Weiterlesen</h3>' },
    { id: 'd2', sources: { text: { separator: true } }, list: '---', drawn: '<hr>' },
  ];
  for (const { id, sources, list, drawn } of cases) {
    const text = `Der Rhein ist lang [1].\n\n${list}\n- [Rhein](${url})`;
    const [declared] = validateDeclarations({ backends: [{ models: ['m'], sources }] }).backends;
    const { citations } = extractCitations({ choices: [{ message: { content: text } }] }, { declared: declared! });
    const message = answer(id, `<p>Der Rhein ist lang [1].</p>${drawn}<ul><li><a href="${url}">Rhein</a></li></ul>`);
    applyToMessage(message, { messageId: id, citations, text, done: true, live: true });
    const visible = [...message.querySelectorAll('.markdown-prose > *')].filter(
      (b) => !b.closest('.owc-hidden') && !b.matches('.owc-sources, .owc-retrieved'),
    );
    assert.deepEqual(
      visible.map((b) => b.outerHTML.slice(0, 3)),
      ['<p>'],
      id,
    );
  }
});

test('a list in a <details> of searches (Bing) is hidden where Open WebUI drew the details, collapsed or open, and only it', async () => {
  const { extractCitations } = await import('../core/index.js');
  const [a, b] = ['https://en.wikipedia.org/wiki/Rhine', 'https://www.britannica.com/place/Rhine-River'];
  const text = [
    '<details>',
    '<summary>',
    'Searching: [**Rhine river length km**]',
    '</summary>',
    `1. [Rhine - Wikipedia](${a})`,
    `2. [Rhine | Britannica](${b})`,
    '</details>',
    'The Rhine is about 1,230 km long [^1^]. It reaches the North Sea [^2^].',
    '',
    '<details>',
    '<summary>',
    'Notes',
    '</summary>',
    'Measured along the main stream.',
    '</details>',
  ].join('\n');
  const { citations } = extractCitations({ choices: [{ message: { role: 'assistant', content: text } }] });
  assert.equal(citations.length, 2);
  // As Open WebUI draws a <details> (Collapsible.svelte): the summary (none here: it spans several
  // lines, which its tokenizer does not read as one) on what opens it, a button in 0.12 and a
  // clickable div in 0.6; its content only when open.
  const opener = {
    '0.12': (open: boolean) =>
      '<button type="button" class="py-0.5 text-[0.9375rem] text-gray-500 block text-start ' +
      `disabled:cursor-default" aria-expanded="${open}"><div class=" w-full flex items-center justify-between ` +
      'gap-2"><!----><div class=""><!----><!----></div><!----><div class="flex self-center translate-y-[1px]">' +
      '<svg></svg></div></div></button>',
    '0.6': () =>
      '<div class="w-fit text-gray-500 hover:text-gray-700 transition cursor-pointer"><div class=" w-full ' +
      'font-medium flex items-center justify-between gap-2"><div class=""><!----></div><div class="flex ' +
      'self-center translate-y-[1px]"><svg></svg></div></div></div>',
  };
  const searches = `<p>Searching: [<strong>Rhine river length km</strong>]</p><ol><li><a href="${a}">Rhine - Wikipedia</a></li><li><a href="${b}">Rhine | Britannica</a></li></ol>`;
  for (const [release, draw] of Object.entries(opener)) {
    for (const open of [false, true]) {
      const collapsible = (content: string) =>
        `<div class="w-full space-y-2">${draw(open)}${open ? `<div><div class=" mb-1.5">${content}</div></div>` : ''}</div>`;
      const id = `b${release}${open}`;
      const message = answer(
        id,
        `${collapsible(searches)}<p>The Rhine is about 1,230 km long [^1^]. It reaches the North Sea [^2^].</p>` +
          collapsible('<p>Measured along the main stream.</p>'),
      );
      applyToMessage(message, { messageId: id, citations, text, done: true, live: true });
      const blocks = [...message.querySelectorAll('.markdown-prose > *')].filter(
        (block) => !block.matches('.owc-sources, .owc-retrieved'),
      );
      assert.deepEqual(
        blocks.map((block) => [block.tagName, block.classList.contains('owc-hidden')]),
        [
          ['DIV', true],
          ['P', false],
          ['DIV', false],
        ],
        `${release}, open: ${open}`,
      );
      assert.equal(message.querySelectorAll('.markdown-prose > p .owc-cite').length, 2);
    }
  }
});

test('markers in the other notations become buttons: [^n^] and ¹ in the text, <sup>n</sup> drawn as a superscript', () => {
  const sources = [citation(1, { refs: [1] }), citation(2, { refs: [2] })];
  const text = 'The Rhine is long [^1^]. It rises in the Alps.² It is busy<sup>1, 2</sup>, 3 m² wide.';
  const message = answer(
    'n1',
    '<p>The Rhine is long [^1^]. It rises in the Alps.² It is busy<sup>1, 2</sup>, 3 m² wide.</p>',
  );
  applyToMessage(message, { messageId: 'n1', citations: sources, text, done: true, live: true });
  const numbers = [...message.querySelectorAll<HTMLElement>('p .owc-cite')].map((b) => Number(b.dataset.owcIndex));
  assert.deepEqual(numbers, [1, 2, 1, 2]);
  assert.match(message.querySelector('p')?.textContent ?? '', /3 m² wide/);
  // In a chat Open WebUI shows inline HTML as text, a text node a token: the tag's text goes, its buttons come.
  const chat = answer('n2', '<p>It is busy<!---->&lt;sup&gt;<!---->2<!---->&lt;/sup&gt;<!---->.</p>');
  applyToMessage(chat, {
    messageId: 'n2',
    citations: sources,
    text: 'It is busy<sup>2</sup>.',
    done: true,
    live: true,
  });
  const visible = [...chat.querySelector('p')!.childNodes].filter(
    (n) => !(n instanceof Element && n.matches('.owc-hidden')),
  );
  assert.equal(visible.map((n) => n.textContent).join(''), 'It is busy2.');
  assert.deepEqual(
    [...chat.querySelectorAll<HTMLElement>('p .owc-cite')].map((b) => Number(b.dataset.owcIndex)),
    [2],
  );
});

test("a long answer's text is read for its markers in many steps, not in the pass's first", () => {
  const sentence = 'A fact about the sources [1], and another [2]. ';
  const text = sentence.repeat(2_000);
  const sources = [citation(1, { url: 'https://a.example/' }), citation(2, { url: 'https://b.example/' })];
  const message = answer('long', `<p>${text}</p>`);
  const pass = passOver(message, { messageId: 'long', citations: sources, text, done: true, live: true });
  let stepsBeforeList = 0;
  while (!message.querySelector('.owc-sources') && !pass.next().done) stepsBeforeList++;
  // Each step reads a part of the text: the observer ends a slice between two of them (observe.ts).
  assert.ok(stepsBeforeList > 10, `${stepsBeforeList} steps for ${text.length} characters`);
  while (!pass.next().done);
  assert.equal(message.querySelectorAll('.owc-cite').length, 4_000);
});
