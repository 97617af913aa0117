/**
 * Copying keeps the sources: Open WebUI's own copy button on an answer copies its text followed
 * by the sources it cites, in the same markdown (and as HTML, when the user copies formatted);
 * "copy all sources" copies a list's every source. Open WebUI's copy is left to do its own work
 * (details removed, watermark, formatting): the clipboard write that follows a click on its button
 * gets the sources added, whichever way it writes (writeText, write, or the `copy` event of its
 * fallback for pages that are not a secure context).
 */

import { type Citation, sourcesMarkdown } from '../core/index.js';
import { guard } from '../guard.js';
import { COPY_BUTTON, MESSAGES, messageId } from '../host/answers.js';
import { patch } from '../host/globals.js';
import type { Feature } from './context.js';
import { el } from './dom.js';
import { t } from './i18n.js';
import { absoluteLink, pageText } from './present.js';

// Open WebUI writes in the click's own task; a second is room for a slower release, not more:
// the user's next copy of their own must stay theirs.
const ARMED_MS = 1_000;

/** The sources as markdown under a heading, as copying an answer adds them. */
export const markdownOf = (citations: readonly Citation[]): string =>
  sourcesMarkdown(citations, { heading: t('sources'), page: pageText, link: absoluteLink });

/** The sources as HTML for the clipboard, never for this page: built as nodes (titles as text,
 * links only http(s) through sourceLink) and serialised, so the browser escapes every value. */
function htmlOf(citations: readonly Citation[]): string {
  const items = citations.map((citation) => {
    const link = absoluteLink(citation);
    const page = pageText(citation);
    return el(
      'li',
      {},
      `[${citation.index}] `,
      link ? el('a', { href: link }, citation.title) : citation.title,
      page && `, ${page}`,
    );
  });
  return el('div', {}, el('p', {}, el('strong', {}, t('sources'))), el('ul', {}, ...items)).outerHTML;
}

async function withSources(blob: Blob, type: string, citations: readonly Citation[]): Promise<Blob> {
  if (type === 'text/plain') return new Blob([await blob.text(), '\n\n', markdownOf(citations)], { type });
  if (type === 'text/html') return new Blob([await blob.text(), htmlOf(citations)], { type });
  return blob;
}

/** Adds the cited sources to what Open WebUI's copy button writes; undone when `signal` aborts. */
export function keepSourcesOnCopy(citedOf: (messageId: string) => readonly Citation[], signal: AbortSignal): void {
  let armed: { citations: readonly Citation[]; until: number } | null = null;
  const take = (): readonly Citation[] | null => {
    const now = armed;
    armed = null;
    return now && Date.now() <= now.until && now.citations.length ? now.citations : null;
  };
  document.addEventListener(
    'click',
    guard('ui', (event: MouseEvent) => {
      const message = (event.target as Element | null)?.closest?.(COPY_BUTTON)?.closest<HTMLElement>(MESSAGES);
      const id = message && messageId(message);
      armed = id ? { citations: citedOf(id), until: Date.now() + ARMED_MS } : null;
    }),
    { capture: true, signal },
  );

  document.addEventListener(
    'copy',
    guard('ui', (event: ClipboardEvent) => {
      const citations = event.clipboardData && take();
      if (!citations) return;
      event.clipboardData.setData(
        'text/plain',
        `${document.getSelection()?.toString() ?? ''}\n\n${markdownOf(citations)}`,
      );
      event.preventDefault();
    }),
    { signal },
  );

  const clipboard = navigator.clipboard as Clipboard | undefined;
  if (!clipboard) return;
  const text = guard('ui', (written: string) => {
    const citations = take();
    return citations ? `${written}\n\n${markdownOf(citations)}` : written;
  });
  const items = guard('ui', (written: ClipboardItem[]) => {
    const citations = take();
    if (!citations) return written;
    return written.map(
      (item) =>
        new ClipboardItem(
          Object.fromEntries(
            item.types.map((type) => [type, item.getType(type).then((blob) => withSources(blob, type, citations))]),
          ),
        ),
    );
  });
  // Own properties over the prototype's methods, until `signal` aborts.
  patch<Clipboard['writeText']>(
    'navigator.clipboard.writeText',
    (writeText) => (data: string) => writeText.call(clipboard, text(data) ?? data),
    signal,
  );
  patch<Clipboard['write']>(
    'navigator.clipboard.write',
    (write) => (data: ClipboardItem[]) => write.call(clipboard, items(data) ?? data),
    signal,
  );
}

/** "Copy all sources": every source of a list, as markdown. */
export function copyAllSources(button: HTMLElement, citations: readonly Citation[]): void {
  void navigator.clipboard?.writeText(markdownOf(citations)).then(
    () => {
      button.textContent = t('copied');
    },
    () => {},
  );
}

/** Copying an answer keeps its cited sources; "copy all" copies every source of a list. */
export const initCopy: Feature = (ui, signal) => {
  keepSourcesOnCopy((id) => ui.split(id).cited, signal);
  document.addEventListener(
    'click',
    guard('ui', (event: MouseEvent) => {
      const target = event.target as Element | null;
      const list = target?.closest?.<HTMLElement>('.owc-sources');
      const button = list && target?.closest<HTMLElement>('.owc-copy-all');
      if (!button) return;
      const { cited, retrieved } = ui.split(list.dataset.owcMessageId ?? '');
      copyAllSources(button, [...cited, ...retrieved]);
    }),
    { capture: true, signal },
  );
};
