import assert from 'node:assert/strict';
import { test } from 'node:test';
import { messagesFromParts } from './languages.js';

test("a language's words are its part's default export, loaded by the part's name", async () => {
  const asked: string[] = [];
  const parts = {
    load: async (name: string) => {
      asked.push(name);
      if (name === 'locale-ko-KR') return { default: { sources: '출처' } };
      throw new Error(`no part ${name}`);
    },
  };
  const messages = messagesFromParts<{ sources: string }>(parts);
  assert.deepEqual(await messages('ko-KR'), { sources: '출처' });
  await assert.rejects(messages('xx'), /no part locale-xx/);
  assert.deepEqual(asked, ['locale-ko-KR', 'locale-xx']);
});
