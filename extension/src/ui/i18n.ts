/** The extension's words in Open WebUI's interface languages; English for the others. */

const MESSAGES = {
  en: { sources: 'Sources', showAll: 'Show all {n} sources', showFewer: 'Show fewer', source: 'Source {n}: {title}', open: 'Open source', copy: 'Copy citation', copied: 'Copied', previous: 'Previous source', next: 'Next source', close: 'Close', page: 'p. {n}', pages: 'pp. {from}–{to}', similarity: 'Relevance {n}', reranker: 'Reranker score {n}', bm25: 'Search score {n}', raw: 'Score {n}', notVerbatim: 'Not verbatim: this quote was not found in the source text.', quote: 'Quote', ofTotal: '{n} of {total}' },
  fr: { sources: 'Sources', showAll: 'Afficher les {n} sources', showFewer: 'Afficher moins', source: 'Source {n} : {title}', open: 'Ouvrir la source', copy: 'Copier la citation', copied: 'Copié', previous: 'Source précédente', next: 'Source suivante', close: 'Fermer', page: 'p. {n}', pages: 'p. {from}–{to}', similarity: 'Pertinence {n}', reranker: 'Score du reranker {n}', bm25: 'Score de recherche {n}', raw: 'Score {n}', notVerbatim: 'Citation non littérale : ce passage est introuvable dans le texte source.', quote: 'Citation', ofTotal: '{n} sur {total}' },
  de: { sources: 'Quellen', showAll: 'Alle {n} Quellen anzeigen', showFewer: 'Weniger anzeigen', source: 'Quelle {n}: {title}', open: 'Quelle öffnen', copy: 'Zitat kopieren', copied: 'Kopiert', previous: 'Vorherige Quelle', next: 'Nächste Quelle', close: 'Schließen', page: 'S. {n}', pages: 'S. {from}–{to}', similarity: 'Relevanz {n}', reranker: 'Reranker-Wert {n}', bm25: 'Suchwert {n}', raw: 'Wert {n}', notVerbatim: 'Nicht wörtlich: Dieses Zitat steht so nicht im Quelltext.', quote: 'Zitat', ofTotal: '{n} von {total}' },
  es: { sources: 'Fuentes', showAll: 'Mostrar las {n} fuentes', showFewer: 'Mostrar menos', source: 'Fuente {n}: {title}', open: 'Abrir la fuente', copy: 'Copiar la cita', copied: 'Copiado', previous: 'Fuente anterior', next: 'Fuente siguiente', close: 'Cerrar', page: 'p. {n}', pages: 'pp. {from}–{to}', similarity: 'Relevancia {n}', reranker: 'Puntuación del reranker {n}', bm25: 'Puntuación de búsqueda {n}', raw: 'Puntuación {n}', notVerbatim: 'No literal: esta cita no aparece en el texto de la fuente.', quote: 'Cita', ofTotal: '{n} de {total}' },
  'zh-CN': { sources: '来源', showAll: '显示全部 {n} 个来源', showFewer: '收起', source: '来源 {n}：{title}', open: '打开来源', copy: '复制引用', copied: '已复制', previous: '上一个来源', next: '下一个来源', close: '关闭', page: '第 {n} 页', pages: '第 {from}–{to} 页', similarity: '相关度 {n}', reranker: '重排序得分 {n}', bm25: '检索得分 {n}', raw: '得分 {n}', notVerbatim: '非原文：在来源文本中未找到这段引文。', quote: '引文', ofTotal: '{n} / {total}' },
  ja: { sources: 'ソース', showAll: '{n} 件のソースをすべて表示', showFewer: '折りたたむ', source: 'ソース {n}: {title}', open: 'ソースを開く', copy: '引用をコピー', copied: 'コピーしました', previous: '前のソース', next: '次のソース', close: '閉じる', page: '{n} ページ', pages: '{from}–{to} ページ', similarity: '関連度 {n}', reranker: 'リランカースコア {n}', bm25: '検索スコア {n}', raw: 'スコア {n}', notVerbatim: '原文と一致しません：この引用はソースの本文に見つかりません。', quote: '引用', ofTotal: '{n} / {total}' },
};

export type MessageKey = keyof typeof MESSAGES.en;

/** Open WebUI keeps the user's language in localStorage.locale (e.g. "fr-FR", "zh-CN"). */
export function locale(): string {
  let chosen = '';
  try {
    chosen = localStorage.getItem('locale') ?? '';
  } catch {
    // storage blocked: fall back to the page's language
  }
  chosen ||= document.documentElement.lang || navigator.language || 'en';
  if (Object.hasOwn(MESSAGES, chosen)) return chosen; // not `in`: "constructor" is no language
  const language = chosen.split('-')[0]!;
  return language === 'zh' ? 'zh-CN' : Object.hasOwn(MESSAGES, language) ? language : 'en';
}

export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  const table = MESSAGES[locale() as keyof typeof MESSAGES] ?? MESSAGES.en;
  return table[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
}
