/** Each language's module imported by its code, for the tests: in the bundle a language is the part
 * `locale-<code>` (parts/languages.ts), here its source file. */

import type { MessagesLoader } from '../src/ui/i18n.js';

export const importLocale: MessagesLoader = async (code) => (await import(`../src/ui/locales/${code}.ts`)).default;
