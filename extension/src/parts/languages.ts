/**
 * The words of a language, from its part: ui/locales/<code>.ts is built as the part
 * `locale-<code>` (build.mjs), its default export the words. This is the loader ui/i18n.ts takes
 * (its setMessagesLoader): the page's language is loaded as the UI starts, before its first draw;
 * another when the page switches to it. A part that cannot be loaded rejects (i18n.ts then shows
 * English, with one warning), and is tried again the next time the language is asked for.
 */

import type { Parts } from './loader.js';

export const languagePart = (code: string): string => `locale-${code}`;

export function messagesFromParts<Messages>(
  parts: Pick<Parts, 'load'>,
): (code: string) => Promise<Messages | undefined> {
  return async (code) => ((await parts.load(languagePart(code))) as { default?: Messages } | undefined)?.default;
}
