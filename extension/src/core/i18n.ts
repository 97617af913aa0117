/** The few words the core itself produces, in the interface languages Open WebUI users pick. */

const UNTITLED: Record<string, string> = {
  en: 'Untitled source',
  fr: 'Source sans titre',
  de: 'Unbenannte Quelle',
  es: 'Fuente sin título',
  'zh-CN': '未命名来源',
  ja: '無題のソース',
};

/** The tag comes from the page (localStorage): own keys only, not Object.prototype's ("valueOf"). */
const ownEntry = (tag: string): string | undefined => (Object.hasOwn(UNTITLED, tag) ? UNTITLED[tag] : undefined);

export function untitledSource(locale = 'en'): string {
  return ownEntry(locale) ?? ownEntry(locale.split('-')[0] ?? '') ?? UNTITLED.en!;
}

/** Whether a title is the fallback in one of the languages: stored, it would show a later reader
 * the language of whoever stored it, so it is stored blank and given again in the reader's. */
export const isUntitledSource = (title: string): boolean => Object.values(UNTITLED).includes(title);
