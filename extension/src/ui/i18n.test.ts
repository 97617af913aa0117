/** The extension's words follow Open WebUI's language, loaded on demand; what is missing is English, never a key. */

import assert from 'node:assert/strict';
import { beforeEach, mock, test } from 'node:test';
import { GlobalRegistrator } from '@happy-dom/global-registrator';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/' });
const { ENGLISH, languageReady, locale, moduleOf, setMessagesLoader, t } = await import('./i18n.js');
const { importLocale } = await import('../../test-support/locale-modules.js');

/** The page in `code`, as Open WebUI leaves it; read in a new task, as a pass reads it. */
async function pageIn(code: string): Promise<void> {
  localStorage.setItem('locale', code);
  await new Promise((resolve) => setTimeout(resolve));
}

beforeEach(() => {
  localStorage.clear();
  setMessagesLoader(importLocale);
});

test("Open WebUI's code maps to the language it shows: exact, main region, bare language, else English", () => {
  const cases: Record<string, string> = {
    'de-DE': 'de-DE',
    'fr-fr': 'fr-FR', // any case, as Open WebUI compares
    'de-AT': 'de-DE', // its main region
    fr: 'fr-FR',
    pt: 'pt-PT',
    'pt-BR': 'pt-BR',
    'ar-SA': 'ar', // i18next falls back to the bare language, which Open WebUI ships for Arabic
    uz: 'uz-Cyrl-UZ', // a bare language: its first region
    'zh-TW': 'zh-TW',
    'zh-HK': 'en', // Open WebUI shows English there, not zh-CN
    'pt-AO': 'pt-PT',
    'nn-NO': 'en', // Nynorsk: Open WebUI ships Bokmål only, as nb-NO
    'en-GB': 'en',
    'en-US': 'en',
    en: 'en',
    constructor: 'en', // the page's value is no key of ours
    '../../main': 'en',
    '': 'en',
  };
  for (const [chosen, shown] of Object.entries(cases)) assert.equal(moduleOf(chosen), shown, chosen);
});

test("the page's language, once loaded, names the list; before it is in, English", async () => {
  await pageIn('de-DE');
  assert.equal(locale(), 'de-DE');
  assert.equal(t('sources'), ENGLISH.sources, 'English while German loads, never the key');
  await languageReady();
  assert.equal(t('sources'), 'Quellen');
  assert.equal(t('showAll', { n: 7 }), 'Alle 7 Quellen anzeigen');
});

test("without Open WebUI's setting, the page's lang decides", async () => {
  document.documentElement.lang = 'ja-JP';
  try {
    await pageIn('');
    await languageReady();
    assert.equal(t('close'), '閉じる');
  } finally {
    document.documentElement.lang = '';
  }
});

test("a language's module without a string gives English's for it", async () => {
  setMessagesLoader(async () => ({ sources: 'Fuentes' }));
  await pageIn('es-ES');
  await languageReady();
  assert.equal(t('sources'), 'Fuentes');
  assert.equal(t('copyAll'), ENGLISH.copyAll);
  assert.equal(t('showAll', { n: 3 }), 'Show all 3 sources');
});

test('a module with an empty string gives English for it, not an empty label', async () => {
  setMessagesLoader(async () => ({ close: '' }));
  await pageIn('it-IT');
  await languageReady();
  assert.equal(t('close'), ENGLISH.close);
});

for (const [what, loader, code] of [
  ['fails', () => Promise.reject(new Error('part not found')), 'ko-KR'],
  ['gives nothing', () => Promise.resolve(undefined), 'ru-RU'],
  ['throws', () => Promise.reject(new TypeError('x is not a function')), 'sv-SE'],
] as const) {
  test(`a loader that ${what}: English, with one console warning`, async () => {
    const warn = mock.method(console, 'warn', () => {});
    try {
      setMessagesLoader(loader);
      await pageIn(code);
      assert.equal(t('sources'), ENGLISH.sources);
      await languageReady();
      await languageReady();
      assert.equal(t('sources'), ENGLISH.sources);
      assert.equal(t('exportSources'), ENGLISH.exportSources);
      assert.equal(warn.mock.callCount(), 1);
      assert.ok(String(warn.mock.calls[0]?.arguments[0]).includes(code));
    } finally {
      warn.mock.restore();
    }
  });
}

test('a language is loaded once, however many strings are asked before it arrives', async () => {
  const asked: string[] = [];
  setMessagesLoader(async (code) => {
    asked.push(code);
    return { sources: 'Źródła' };
  });
  await pageIn('pl-PL');
  for (let i = 0; i < 50; i++) t('sources');
  await languageReady();
  assert.equal(t('sources'), 'Źródła');
  assert.deepEqual(asked, ['pl-PL']);
});

test('English asks the loader for nothing', async () => {
  const asked: string[] = [];
  setMessagesLoader(async (code) => {
    asked.push(code);
    return {};
  });
  for (const code of ['en-US', 'en-GB', 'zz']) {
    await pageIn(code);
    t('sources');
    await languageReady();
  }
  assert.deepEqual(asked, []);
});
