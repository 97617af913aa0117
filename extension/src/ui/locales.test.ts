/**
 * Every language Open WebUI 0.12.4 ships has its module, each module every string with English's
 * placeholders, and the words it shares with Open WebUI's interface in Open WebUI's wording.
 * test-support/open-webui-languages.json is read from the installed Open WebUI by
 * scripts/open_webui_languages.py.
 */

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { importLocale } from '../../test-support/locale-modules.js';
import { ENGLISH, LOCALES, type MessageKey, type Messages, OPEN_WEBUI_LANGUAGES } from './i18n.js';

const OPEN_WEBUI: { openWebui: string; languages: string[]; words: Record<string, Record<string, string>> } =
  JSON.parse(readFileSync(new URL('../../test-support/open-webui-languages.json', import.meta.url), 'utf8'));

const KEYS = Object.keys(ENGLISH) as MessageKey[];
const modules = new Map<string, Partial<Messages>>();
for (const code of LOCALES) modules.set(code, (await importLocale(code)) ?? {});

// Our strings that say what one of Open WebUI's own words says, shown next to it.
const SHARED: Partial<Record<MessageKey, string>> = { close: 'Close', exportSources: 'Export' };

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).sort();

test("our languages are Open WebUI 0.12.4's, each a module but its two Englishes", () => {
  assert.equal(OPEN_WEBUI.openWebui, '0.12.4');
  assert.deepEqual([...OPEN_WEBUI_LANGUAGES], OPEN_WEBUI.languages);
  const files = readdirSync(new URL('./locales/', import.meta.url)).sort();
  assert.deepEqual(files, LOCALES.map((code) => `${code}.ts`).sort());
  assert.ok(!LOCALES.some((code) => code.startsWith('en')));
});

test('every module has every string, and no string English does not have', () => {
  for (const [code, messages] of modules) {
    const missing = KEYS.filter((key) => !messages[key]?.trim());
    assert.deepEqual(missing, [], `${code} lacks these`);
    const unknown = Object.keys(messages).filter((key) => !Object.hasOwn(ENGLISH, key));
    assert.deepEqual(unknown, [], `${code} has strings nothing asks for`);
  }
});

test("every string has English's placeholders, none more, none fewer", () => {
  for (const [code, messages] of modules) {
    for (const key of KEYS) {
      const text = messages[key];
      if (text) assert.deepEqual(placeholders(text), placeholders(ENGLISH[key]), `${code} ${key}: ${text}`);
    }
  }
});

test("a word Open WebUI's interface shows too is in Open WebUI's wording", () => {
  for (const [code, messages] of modules) {
    for (const [key, word] of Object.entries(SHARED) as [MessageKey, string][]) {
      const theirs = OPEN_WEBUI.words[code]?.[word];
      if (theirs) assert.equal(messages[key], theirs, `${code} ${key}`);
    }
  }
});
