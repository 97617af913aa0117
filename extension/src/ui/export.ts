/**
 * Exporting sources: one control on each source list, for that answer or the whole chat, as
 * Markdown with footnotes, CSL-JSON, BibTeX or RIS, downloaded as `<chat title>-sources.<ext>`.
 * The chat is read from Open WebUI (every answer of the branch shown, not only those drawn: the
 * branch that ends at the last message drawn, which "<" ">" change without saving the chat);
 * each answer as the page shows it where the page has it, else as Open WebUI stored it.
 */

import {
  bibliography,
  bibtex,
  chatMarkdown,
  cslJson,
  type Entry,
  type ExportedAnswer,
  extractCitations,
  fileStem,
  ris,
} from '../core/index.js';
import { guard } from '../guard.js';
import { drawnMessageIds } from '../host/answers.js';
import { messageText } from '../host/message-text.js';
import { chatIdOfPage } from '../host/routes.js';
import type { ChatReader, ChatTurn } from '../persist/chat-reader.js';
import type { Feature, UiContext } from './context.js';
import { el } from './dom.js';
import type { FileKind, Scope } from './export-control.js';
import { locale, t } from './i18n.js';
import { absoluteLink, absoluteUrl, pageText } from './present.js';

/** A bibliography's file: every source of the answers once, as `format` writes it. */
const bibliographyFile =
  (format: (entries: readonly Entry[], accessed: Date) => string) =>
  (_: string, answers: readonly ExportedAnswer[]): string =>
    format(bibliography(answers, absoluteUrl), new Date());

const FILES = {
  md: {
    ext: 'md',
    type: 'text/markdown',
    write: (title: string, answers: readonly ExportedAnswer[]) =>
      chatMarkdown(title, answers, {
        answer: (n) => t('answer', { n }),
        sources: t('sources'),
        retrieved: t('retrievedOnly'),
        page: pageText,
        link: absoluteLink,
      }),
  },
  csl: {
    ext: 'csl.json',
    type: 'application/vnd.citationstyles.csl+json',
    write: bibliographyFile(cslJson),
  },
  bib: {
    ext: 'bib',
    type: 'application/x-bibtex',
    write: bibliographyFile(bibtex),
  },
  ris: {
    ext: 'ris',
    type: 'application/x-research-info-systems',
    write: bibliographyFile(ris),
  },
} as const satisfies Record<FileKind, unknown>;

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = el('a', { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** An answer of the stored chat, as the page shows it when it has it. */
function exported(ui: UiContext, turn: ChatTurn): ExportedAnswer {
  const shown = ui.answer(turn.messageId);
  if (shown) return { ...shown, question: turn.question };
  const citations = extractCitations({ sources: turn.message.sources }, { locale: locale() }).citations;
  return { question: turn.question, text: messageText(turn.message) ?? '', citations };
}

/** What a scope exports, and the file's name without its extension. */
async function collect(
  ui: UiContext,
  readChat: ChatReader | undefined,
  messageId: string,
  scope: Scope,
): Promise<{ stem: string; title: string; answers: ExportedAnswer[] }> {
  const chatId = chatIdOfPage(location.pathname);
  // The page's messages now, as the user clicked: the branch on screen ("<" ">" are not saved).
  const drawn = drawnMessageIds();
  const chat =
    chatId && readChat
      ? await readChat(chatId, drawn).catch((error: unknown) => {
          console.warn(
            '[owui-citations] export: the stored chat could not be read; the answers on the page are exported',
            error,
          );
          return null;
        })
      : null;
  const title = chat?.title || document.title.split(' • ')[0] || 'chat';
  const stem = fileStem(title);
  if (!chat) {
    // A temporary chat, or one that could not be read: what the page has.
    const ids = scope === 'chat' ? drawn : [messageId];
    const answers = ids.flatMap((id) => ui.answer(id) ?? []);
    return { stem: `${stem}${scope === 'answer' ? '-answer' : ''}`, title, answers };
  }
  if (scope === 'chat') return { stem, title, answers: chat.answers.map((turn) => exported(ui, turn)) };
  const k = chat.answers.findIndex((turn) => turn.messageId === messageId);
  const answer = k >= 0 ? exported(ui, chat.answers[k]!) : ui.answer(messageId);
  return { stem: `${stem}-answer-${k + 1 || ''}`.replace(/-$/, ''), title, answers: answer ? [answer] : [] };
}

/** Closes the menu a control is in, the keyboard back on its summary (as a menu closes). */
function closeMenu(inside: Element): void {
  const menu = inside.closest<HTMLDetailsElement>('.owc-export');
  if (!menu?.open) return;
  menu.open = false;
  menu.querySelector<HTMLElement>('summary')?.focus();
}

/** A click on one of the control's formats downloads it; Escape closes the menu. */
export function initExport(readChat?: ChatReader): Feature {
  return (ui, signal) => {
    document.addEventListener(
      'click',
      guard('ui', (event: MouseEvent) => {
        const button = (event.target as Element | null)?.closest?.<HTMLElement>('.owc-export button[data-owc-file]');
        const messageId = button?.closest<HTMLElement>('.owc-sources')?.dataset.owcMessageId;
        if (!button || !messageId) return;
        const file = FILES[button.dataset.owcFile as FileKind];
        const scope = button.dataset.owcScope === 'chat' ? 'chat' : 'answer';
        if (!file) return;
        closeMenu(button);
        void collect(ui, readChat, messageId, scope).then(
          guard('ui', ({ stem, title, answers }) =>
            download(`${stem}-sources.${file.ext}`, file.type, file.write(title, answers)),
          ),
        );
      }),
      { signal },
    );
    document.addEventListener(
      'keydown',
      guard('ui', (event: KeyboardEvent) => {
        const inMenu = (event.target as Element | null)?.closest?.('.owc-export');
        if (event.key !== 'Escape' || !inMenu) return;
        event.preventDefault();
        closeMenu(inMenu);
      }),
      { signal },
    );
  };
}
