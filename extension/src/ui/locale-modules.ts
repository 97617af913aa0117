/** Each language's module imported by its code: in Node (the tests) one file each, in a bundle
 * what esbuild makes of `import()` over ui/locales/ (every module inlined, or one chunk each). */

import type { MessagesLoader } from './i18n.js';

export const importLocale: MessagesLoader = async (code) => (await import(`./locales/${code}.ts`)).default;
