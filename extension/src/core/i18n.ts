/** The few words the core itself produces, in the interface languages Open WebUI users pick. */

const UNTITLED: Record<string, string> = {
  en: 'Untitled source',
  fr: 'Source sans titre',
  de: 'Unbenannte Quelle',
  es: 'Fuente sin título',
  'zh-CN': '未命名来源',
  ja: '無題のソース',
};

export function untitledSource(locale = 'en'): string {
  return UNTITLED[locale] ?? UNTITLED[locale.split('-')[0] ?? ''] ?? UNTITLED.en!;
}
