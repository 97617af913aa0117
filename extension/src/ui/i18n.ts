/** The extension's words in Open WebUI's interface languages; English for the others. */

const MESSAGES = {
  en: {
    sources: 'Sources',
    showAll: 'Show all {n} sources',
    showFewer: 'Show fewer',
    source: 'Source {n}: {title}',
    copy: 'Copy citation',
    copied: 'Copied',
    previous: 'Previous source',
    next: 'Next source',
    close: 'Close',
    page: 'p. {n}',
    pages: 'pp. {from}–{to}',
    similarity: 'Relevance {n}',
    reranker: 'Reranker score {n}',
    bm25: 'Search score {n}',
    raw: 'Score {n}',
    notVerbatim: 'Not verbatim: this quote was not found in the source text.',
    ofTotal: '{n} of {total}',
    copyAll: 'Copy all sources',
    settings: 'Citation settings',
    settingShown: 'Sources shown before “Show all”',
    settingAll: 'All',
    settingRetrieved: 'Show sources retrieved but not cited',
    settingStrip: 'Keep Open WebUI’s own source list',
    retrieved: '{n} more retrieved, not cited',
    unnamed: 'Source {n}: the backend sent no such source',
    citation: 'Citation {k} of {total}: source {n}, {title}',
    citedOnce: 'Cited once in this answer',
    citedTimes: 'Cited {n} times in this answer',
    notCited: 'Not cited in the text of this answer',
    showPlaces: 'Show where',
    exportSources: 'Export',
    exportAnswer: 'This answer',
    exportChat: 'Whole chat',
    answer: 'Answer {n}',
    retrievedOnly: 'Retrieved, not cited',
  },
  fr: {
    sources: 'Sources',
    showAll: 'Afficher les {n} sources',
    showFewer: 'Afficher moins',
    source: 'Source {n} : {title}',
    copy: 'Copier la citation',
    copied: 'Copié',
    previous: 'Source précédente',
    next: 'Source suivante',
    close: 'Fermer',
    page: 'p. {n}',
    pages: 'p. {from}–{to}',
    similarity: 'Pertinence {n}',
    reranker: 'Score du reranker {n}',
    bm25: 'Score de recherche {n}',
    raw: 'Score {n}',
    notVerbatim: 'Citation non littérale : ce passage est introuvable dans le texte source.',
    ofTotal: '{n} sur {total}',
    copyAll: 'Copier toutes les sources',
    settings: 'Réglages des citations',
    settingShown: 'Sources affichées avant « Afficher tout »',
    settingAll: 'Toutes',
    settingRetrieved: 'Afficher les sources trouvées mais non citées',
    settingStrip: 'Garder la liste de sources d’Open WebUI',
    retrieved: '{n} de plus trouvées, non citées',
    unnamed: 'Source {n} : le serveur n’a envoyé aucune source de ce numéro',
    citation: 'Citation {k} sur {total} : source {n}, {title}',
    citedOnce: 'Citée une fois dans cette réponse',
    citedTimes: 'Citée {n} fois dans cette réponse',
    notCited: 'Pas citée dans le texte de cette réponse',
    showPlaces: 'Voir où',
    exportSources: 'Exporter',
    exportAnswer: 'Cette réponse',
    exportChat: 'Toute la conversation',
    answer: 'Réponse {n}',
    retrievedOnly: 'Trouvées, non citées',
  },
  de: {
    sources: 'Quellen',
    showAll: 'Alle {n} Quellen anzeigen',
    showFewer: 'Weniger anzeigen',
    source: 'Quelle {n}: {title}',
    copy: 'Zitat kopieren',
    copied: 'Kopiert',
    previous: 'Vorherige Quelle',
    next: 'Nächste Quelle',
    close: 'Schließen',
    page: 'S. {n}',
    pages: 'S. {from}–{to}',
    similarity: 'Relevanz {n}',
    reranker: 'Reranker-Wert {n}',
    bm25: 'Suchwert {n}',
    raw: 'Wert {n}',
    notVerbatim: 'Nicht wörtlich: Dieses Zitat steht so nicht im Quelltext.',
    ofTotal: '{n} von {total}',
    copyAll: 'Alle Quellen kopieren',
    settings: 'Einstellungen für Quellenangaben',
    settingShown: 'Angezeigte Quellen vor „Alle anzeigen“',
    settingAll: 'Alle',
    settingRetrieved: 'Gefundene, aber nicht zitierte Quellen anzeigen',
    settingStrip: 'Die Quellenliste von Open WebUI behalten',
    retrieved: '{n} weitere gefunden, nicht zitiert',
    unnamed: 'Quelle {n}: Das Backend hat keine solche Quelle gesendet',
    citation: 'Zitat {k} von {total}: Quelle {n}, {title}',
    citedOnce: 'Einmal in dieser Antwort zitiert',
    citedTimes: '{n}-mal in dieser Antwort zitiert',
    notCited: 'Im Text dieser Antwort nicht zitiert',
    showPlaces: 'Stellen zeigen',
    exportSources: 'Exportieren',
    exportAnswer: 'Diese Antwort',
    exportChat: 'Ganzer Chat',
    answer: 'Antwort {n}',
    retrievedOnly: 'Gefunden, nicht zitiert',
  },
  es: {
    sources: 'Fuentes',
    showAll: 'Mostrar las {n} fuentes',
    showFewer: 'Mostrar menos',
    source: 'Fuente {n}: {title}',
    copy: 'Copiar la cita',
    copied: 'Copiado',
    previous: 'Fuente anterior',
    next: 'Fuente siguiente',
    close: 'Cerrar',
    page: 'p. {n}',
    pages: 'pp. {from}–{to}',
    similarity: 'Relevancia {n}',
    reranker: 'Puntuación del reranker {n}',
    bm25: 'Puntuación de búsqueda {n}',
    raw: 'Puntuación {n}',
    notVerbatim: 'No literal: esta cita no aparece en el texto de la fuente.',
    ofTotal: '{n} de {total}',
    copyAll: 'Copiar todas las fuentes',
    settings: 'Ajustes de las citas',
    settingShown: 'Fuentes mostradas antes de «Mostrar todas»',
    settingAll: 'Todas',
    settingRetrieved: 'Mostrar las fuentes encontradas pero no citadas',
    settingStrip: 'Mantener la lista de fuentes de Open WebUI',
    retrieved: '{n} más encontradas, no citadas',
    unnamed: 'Fuente {n}: el servidor no envió ninguna fuente con este número',
    citation: 'Cita {k} de {total}: fuente {n}, {title}',
    citedOnce: 'Citada una vez en esta respuesta',
    citedTimes: 'Citada {n} veces en esta respuesta',
    notCited: 'No citada en el texto de esta respuesta',
    showPlaces: 'Ver dónde',
    exportSources: 'Exportar',
    exportAnswer: 'Esta respuesta',
    exportChat: 'Todo el chat',
    answer: 'Respuesta {n}',
    retrievedOnly: 'Encontradas, no citadas',
  },
  'zh-CN': {
    sources: '来源',
    showAll: '显示全部 {n} 个来源',
    showFewer: '收起',
    source: '来源 {n}：{title}',
    copy: '复制引用',
    copied: '已复制',
    previous: '上一个来源',
    next: '下一个来源',
    close: '关闭',
    page: '第 {n} 页',
    pages: '第 {from}–{to} 页',
    similarity: '相关度 {n}',
    reranker: '重排序得分 {n}',
    bm25: '检索得分 {n}',
    raw: '得分 {n}',
    notVerbatim: '非原文：在来源文本中未找到这段引文。',
    ofTotal: '{n} / {total}',
    copyAll: '复制全部来源',
    settings: '引用设置',
    settingShown: '“显示全部”之前显示的来源数',
    settingAll: '全部',
    settingRetrieved: '显示已检索但未引用的来源',
    settingStrip: '保留 Open WebUI 自带的来源列表',
    retrieved: '另有 {n} 个已检索、未引用',
    unnamed: '来源 {n}：后端未提供此来源',
    citation: '引用 {k} / {total}：来源 {n}，{title}',
    citedOnce: '在此回答中被引用 1 次',
    citedTimes: '在此回答中被引用 {n} 次',
    notCited: '此回答正文未引用',
    showPlaces: '查看位置',
    exportSources: '导出',
    exportAnswer: '此回答',
    exportChat: '整个对话',
    answer: '回答 {n}',
    retrievedOnly: '已检索、未引用',
  },
  ja: {
    sources: 'ソース',
    showAll: '{n} 件のソースをすべて表示',
    showFewer: '折りたたむ',
    source: 'ソース {n}: {title}',
    copy: '引用をコピー',
    copied: 'コピーしました',
    previous: '前のソース',
    next: '次のソース',
    close: '閉じる',
    page: '{n} ページ',
    pages: '{from}–{to} ページ',
    similarity: '関連度 {n}',
    reranker: 'リランカースコア {n}',
    bm25: '検索スコア {n}',
    raw: 'スコア {n}',
    notVerbatim: '原文と一致しません：この引用はソースの本文に見つかりません。',
    ofTotal: '{n} / {total}',
    copyAll: 'すべてのソースをコピー',
    settings: '引用の設定',
    settingShown: '「すべて表示」の前に表示するソース数',
    settingAll: 'すべて',
    settingRetrieved: '検索されたが引用されていないソースを表示',
    settingStrip: 'Open WebUI 自体のソース一覧を残す',
    retrieved: 'ほかに検索された未引用のソース {n} 件',
    unnamed: 'ソース {n}：バックエンドはこのソースを送っていません',
    citation: '引用 {k} / {total}: ソース {n}、{title}',
    citedOnce: 'この回答で 1 回引用',
    citedTimes: 'この回答で {n} 回引用',
    notCited: 'この回答の本文では引用されていません',
    showPlaces: '引用箇所へ',
    exportSources: 'エクスポート',
    exportAnswer: 'この回答',
    exportChat: 'チャット全体',
    answer: '回答 {n}',
    retrievedOnly: '検索済み・未引用',
  },
};

export type MessageKey = keyof typeof MESSAGES.en;

// Read once per task: a pass labels hundreds of buttons, and the language changes between tasks.
let current: string | null = null;

/** Open WebUI keeps the user's language in localStorage.locale (e.g. "fr-FR", "zh-CN"). */
export function locale(): string {
  if (current === null) {
    current = readLocale();
    queueMicrotask(() => (current = null));
  }
  return current;
}

function readLocale(): string {
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

// Each message split once into its text and the names of its values ("a {n} b" → ["a ", "n", " b"]):
// a pass names hundreds of buttons, and a regular expression per name was most of its cost.
const split = new Map<string, string[]>();

export function t(key: MessageKey, values: Record<string, string | number> = {}): string {
  const template = (MESSAGES[locale() as keyof typeof MESSAGES] ?? MESSAGES.en)[key];
  let parts = split.get(template);
  if (!parts) {
    parts = template.split(/\{(\w+)\}/);
    split.set(template, parts);
  }
  let text = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) text += String(values[parts[i]!] ?? '') + parts[i + 1]!;
  return text;
}
