import assert from 'node:assert/strict';
import { test } from 'node:test';

import { DECLARATIONS_KEY } from '../core/index.js';
import { createDeclarations, loadAdminDeclarations } from './declarations.js';
import { createHub } from './hub.js';

const memoryStorage = (value: string | null) => {
  const items = new Map<string, string>(value === null ? [] : [[DECLARATIONS_KEY, value]]);
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, text: string) => void items.set(key, text),
  } as unknown as Storage;
};
const backends = (...list: unknown[]) => JSON.stringify({ backends: list });
const kbHits = (model: string) => ({
  models: [model],
  sources: { path: 'kb_hits' },
  fields: { title: 'caption', url: 'at' },
});
const answer = {
  kb_hits: [{ caption: 'Hit', at: 'https://hit.example/' }],
  choices: [{ delta: { content: 'x [1]' } }],
};

/** Console warnings while `run` runs. */
async function warnings(run: () => unknown): Promise<unknown[][]> {
  const seen: unknown[][] = [];
  const original = console.warn;
  console.warn = (...data: unknown[]) => void seen.push(data);
  try {
    await run();
  } finally {
    console.warn = original;
  }
  return seen;
}

const response = (status: number, body: string, type = 'application/json') =>
  ({ status, ok: status < 300, headers: new Headers({ 'content-type': type }), text: async () => body }) as Response;

test("the admin's file applies to its models; the browser's own wins for the models it declares", async () => {
  const storage = memoryStorage(backends({ models: ['b'], sources: { text: { separator: true } } }));
  const declarations = createDeclarations(() => storage);
  let changes = 0;
  declarations.onChange(() => changes++);
  const fetched: string[] = [];
  await loadAdminDeclarations(declarations, async (url) => {
    fetched.push(String(url));
    return response(200, backends(kbHits('a'), { ...kbHits('b'), models: ['b'] }));
  });
  assert.deepEqual(fetched, ['/static/owc-backends.json']);
  assert.equal(changes, 1);
  assert.equal(declarations.forModel('a')?.sources.kind, 'path');
  assert.equal(declarations.forModel('b')?.sources.kind, 'separator');
  assert.equal(declarations.forModel('c'), undefined);
});

test('no file (404, or a page served for any path) is silent; an invalid one is one warning and nothing applied', async () => {
  for (const missing of [response(404, 'Not Found'), response(200, '<!doctype html>', 'text/html')]) {
    const declarations = createDeclarations(() => null);
    assert.deepEqual(await warnings(() => loadAdminDeclarations(declarations, async () => missing)), []);
  }
  const declarations = createDeclarations(() => null);
  const bad = backends(kbHits('a'), { models: ['z'], sources: { path: 'a..b' } });
  const warned = await warnings(() => loadAdminDeclarations(declarations, async () => response(200, bad)));
  assert.equal(warned.length, 1);
  assert.match(String(warned[0]![0]), /\/static\/owc-backends\.json are not applied/);
  assert.deepEqual(warned[0]![1], [
    'backends[1] ("z"): sources.path: "a..b" is not a path: a "." at 2 where a name should be',
  ]);
  assert.equal(declarations.forModel('a'), undefined, 'a file half right is not half applied');
});

test("the admin's file is tried again after a network failure or a 5xx, with backoff, until it comes; a 403 is not", async () => {
  const declarations = createDeclarations(() => null);
  const answers: Array<() => Response> = [
    () => {
      throw new TypeError('Failed to fetch');
    },
    () => response(502, 'Bad Gateway', 'text/plain'),
    () => response(503, 'Service Unavailable', 'text/plain'),
    () => response(200, backends(kbHits('a'))),
  ];
  const waits: number[] = [];
  const warned = await warnings(() =>
    loadAdminDeclarations(
      declarations,
      async () => answers.shift()!(),
      async (ms) => void waits.push(ms),
      () => 1,
    ),
  );
  assert.equal(declarations.forModel('a')?.sources.kind, 'path');
  assert.deepEqual(waits, [1000, 2000, 4000]);
  assert.equal(warned.length, 1);

  const refused = createDeclarations(() => null);
  let tries = 0;
  const forbidden = await warnings(() =>
    loadAdminDeclarations(
      refused,
      async () => {
        tries++;
        return response(403, 'Forbidden', 'text/plain');
      },
      async () => assert.fail('a 403 is not tried again'),
    ),
  );
  assert.equal(tries, 1);
  assert.equal(forbidden.length, 1);
});

test("this browser's declarations are read again when saved; an invalid value is one warning, none applied", async () => {
  const storage = memoryStorage('{"backends": [{"models": ["m"], "sources": {"path": "__proto__"}}]}');
  let declarations: ReturnType<typeof createDeclarations> | undefined;
  const warned = await warnings(() => {
    declarations = createDeclarations(() => storage);
  });
  assert.equal(warned.length, 1);
  assert.equal(declarations!.forModel('m'), undefined);
  storage.setItem(DECLARATIONS_KEY, backends(kbHits('m')));
  declarations!.reload();
  assert.equal(declarations!.forModel('m')?.sources.kind, 'path');
  const throwing = () => {
    throw new Error('SecurityError');
  };
  assert.equal(createDeclarations(throwing).forModel('m'), undefined, 'storage refused: none, no throw');
});

test('the hub reads an answer of a declared model with its declaration, once the model is known, and again when one arrives', async () => {
  const declarations = createDeclarations(() => null);
  const hub = createHub(() => 'en', declarations);
  hub.asked('m1', 'my-rag');
  hub.add('m1', 'c1', answer);
  hub.add('m2', 'c1', answer); // another model's answer, the same shape
  assert.equal(hub.citations('m1').citations.length, 0, 'no built-in format reads kb_hits');
  const redrawn: string[] = [];
  hub.subscribe((state) => redrawn.push(state.messageId));
  await loadAdminDeclarations(declarations, async () => response(200, backends(kbHits('my-rag'))));
  assert.deepEqual(redrawn, ['m1']);
  assert.deepEqual(
    hub.citations('m1').citations.map((c) => [c.title, c.url, c.format]),
    [['Hit', 'https://hit.example/', 'declared']],
  );
  assert.equal(hub.citations('m2').citations.length, 0);
  // Known from the stored chat (a reload): the stored message names its model.
  hub.setStored('m2', 'c1', { content: 'x [1]', model: 'my-rag', done: true });
  assert.equal(hub.citations('m2').citations.length, 1);
});

test("a declaration without models reads every answer whose list carries its number, whatever the model, this browser's first", async () => {
  const numbered = (title: string) => ({
    sources: { path: 'kb_hits' },
    fields: { title, url: 'at', number: 'n' },
  });
  const storage = memoryStorage(backends(numbered('label')));
  const declarations = createDeclarations(() => storage);
  const hub = createHub(() => 'en', declarations);
  const hit = { n: 1, caption: 'Caption', label: 'Label', at: 'https://hit.example/' };
  hub.add('numbered', 'c1', { ...answer, kb_hits: [hit] }); // no model known
  hub.add('unnumbered', 'c1', answer); // the same list, its items without a number
  const redrawn: string[] = [];
  hub.subscribe((state) => redrawn.push(state.messageId));
  const anyModel = declarations.anyModel();
  await loadAdminDeclarations(declarations, async () => response(200, backends(numbered('caption'))));
  assert.deepEqual(redrawn, ['numbered', 'unnumbered'], 'every answer read again: the list for any model grew');
  assert.notEqual(declarations.anyModel(), anyModel);
  assert.deepEqual(
    hub.citations('numbered').citations.map((c) => [c.title, c.refs]),
    [['Label', [1]]],
  );
  assert.equal(hub.citations('unnumbered').citations.length, 0);
  const same = declarations.anyModel();
  storage.setItem(DECLARATIONS_KEY, backends(numbered('label'), kbHits('m')));
  declarations.reload();
  assert.equal(declarations.anyModel(), same, 'the same list while its declarations are the same');
});
