import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createHub } from './hub.js';

const perplexityChunk = (urls: string[]) => ({
  object: 'chat.completion.chunk',
  citations: urls,
  choices: [{ index: 0, delta: { content: 'x' } }],
});
const urls = (hub: ReturnType<typeof createHub>, id: string) => hub.citations(id).citations.map((c) => c.url);

test('citations follow what streams in, and finishing an answer keeps them', () => {
  const hub = createHub(() => 'en');
  hub.add('m1', 'c1', perplexityChunk(['https://a.example/']));
  assert.deepEqual(urls(hub, 'm1'), ['https://a.example/']);
  hub.add('m1', 'c1', perplexityChunk(['https://a.example/', 'https://b.example/']));
  assert.deepEqual(urls(hub, 'm1'), ['https://a.example/', 'https://b.example/']);
  hub.finish('m1', 'done');
  assert.deepEqual(urls(hub, 'm1'), ['https://a.example/', 'https://b.example/']);
});

test('a message known only from the stored chat shows its stored sources, updated when stored again', () => {
  const hub = createHub(() => 'en');
  const stored = (url: string) => ({
    content: 'text',
    sources: [{ source: { name: 'S' }, document: ['d'], metadata: [{ source: url, url }] }],
  });
  hub.setStored('m2', 'c1', stored('https://old.example/'));
  assert.deepEqual(urls(hub, 'm2'), ['https://old.example/']);
  hub.setStored('m2', 'c1', stored('https://new.example/'));
  assert.deepEqual(urls(hub, 'm2'), ['https://new.example/']);
  assert.deepEqual(urls(hub, 'unknown'), []);
});

test('a settled answer keeps its citations and text, not the raw data: what streams in later is not read', () => {
  const hub = createHub(() => 'en');
  hub.add('m1', 'c1', perplexityChunk(['https://a.example/']));
  hub.settle('m1'); // not finished yet: nothing happens
  hub.add('m1', 'c1', perplexityChunk(['https://a.example/', 'https://b.example/']));
  hub.finish('m1', 'done');
  hub.settle('m1');
  assert.deepEqual(urls(hub, 'm1'), ['https://a.example/', 'https://b.example/']);
  hub.add('m1', 'c1', perplexityChunk(['https://c.example/']));
  assert.deepEqual(urls(hub, 'm1'), ['https://a.example/', 'https://b.example/']);
});

test('the hub keeps the answers seen last, not every answer of a page open for days', () => {
  const hub = createHub(() => 'en');
  for (let i = 0; i < 300; i++) hub.add(`m${i}`, 'c1', perplexityChunk([`https://${i}.example/`]));
  assert.deepEqual(urls(hub, 'm299'), ['https://299.example/']);
  assert.deepEqual(urls(hub, 'm0'), []);
});

test("sources read from a finished answer's text replace Open WebUI's own only when they are its copy, links", () => {
  const hub = createHub(() => 'en');
  const references = 'Vaccinate early [1].\n\n### References\n- [1] puppy-vaccination.md';
  // Open WebUI's own source (its knowledge base) for an answer that also lists references: kept.
  const kb = 'https://kb.example/';
  const own = { source: { name: 'KB' }, document: ['d'], metadata: [{ source: kb, url: kb }] };
  hub.add('m1', 'c1', { type: 'source', data: own });
  hub.finish('m1', references);
  assert.deepEqual(urls(hub, 'm1'), [kb]);
  // Without sources of Open WebUI's own, the references are the answer's sources.
  hub.addText('m2', 'c1', references, false);
  hub.finish('m2', references);
  assert.deepEqual(
    hub.citations('m2').citations.map((c) => [c.format, c.title]),
    [['lightrag', 'puppy-vaccination.md']],
  );
});

test("a finished answer's sources written in its long text are read in many steps, as the whole read reads them", () => {
  const sources = Array.from({ length: 30 }, (_, i) => `${i + 1}. [Source ${i + 1}](https://s${i + 1}.example/)`);
  const content = `${'A fact [1], another [2]. '.repeat(2_000)}\n\nSources:\n${sources.join('\n')}`;
  const answered = () => {
    const hub = createHub(() => 'en');
    hub.addText('m1', 'c1', content, true);
    hub.finish('m1', content);
    return hub;
  };
  const whole = answered().view('m1')!.citations;
  assert.equal(whole.length, 30);
  const reading = answered().view('m1')!.readCitations!(256);
  let steps = 1;
  let next = reading.next();
  for (; !next.done; next = reading.next()) steps++;
  assert.deepEqual(next.value, whole);
  assert.ok(steps > content.length / 1_000, `${steps} steps for ${content.length} characters`);
});
