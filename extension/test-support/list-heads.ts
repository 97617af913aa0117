/**
 * Each language's head of the source list as list.ts draws it (title, "Copy all sources", Export,
 * settings), printed as JSON {code: html} for scripts/phone_width.py to lay out in Chromium.
 *
 *     node --import tsx extension/test-support/list-heads.ts
 */

import { GlobalRegistrator } from '@happy-dom/global-registrator';
import { citation } from './citation.js';

GlobalRegistrator.register({ url: 'http://127.0.0.1:8080/' });
const { LOCALES, languageReady, setMessagesLoader } = await import('../src/ui/i18n.js');
const { importLocale } = await import('./locale-modules.js');
const { sourceList } = await import('../src/ui/list.js');

setMessagesLoader(importLocale);
const heads: Record<string, string> = {};
for (const code of ['en', ...LOCALES]) {
  localStorage.setItem('locale', code);
  await new Promise((resolve) => setTimeout(resolve)); // the language is read once per task
  await languageReady();
  const list = sourceList('phone', [citation(1), citation(2)], 'phone');
  heads[code] = list.querySelector('.owc-sources-head')?.outerHTML ?? '';
}
process.stdout.write(JSON.stringify(heads));
