/**
 * The chat open on the page, read for an export: its title and the answers of the branch the
 * user sees, in order, each with the question it answers. Read as persist reads a chat
 * (openwebui.ts), with the page's session: only ever the signed-in user's own request.
 */

import type { StoredMessage } from '../capture/hub.js';
import { shownBranch } from '../core/index.js';
import { messageText } from '../host/message-text.js';
import { createOpenWebuiApi } from './openwebui.js';
import { pageToken, userOfToken } from './session.js';

export interface ChatTurn {
  messageId: string;
  question: string | null;
  message: StoredMessage;
}

export interface ReadChat {
  title: string;
  answers: ChatTurn[];
}

/** `drawn`: the messages the page draws, in order: the branch on screen ends at the last one
 * the stored chat holds (core/branch.ts). */
export type ChatReader = (chatId: string, drawn: readonly string[]) => Promise<ReadChat>;

/** The answers of a branch (its message ids, oldest first), each with its question. */
function answersOf(messages: Record<string, StoredMessage>, branch: readonly string[]): ChatTurn[] {
  return branch.flatMap((messageId, k) => {
    const message = messages[messageId]!;
    if (message.role !== 'assistant') return [];
    const parent = k > 0 ? messages[branch[k - 1]!] : undefined;
    const question = parent?.role === 'user' ? (messageText(parent) ?? null) : null;
    return [{ messageId, question, message }];
  });
}

export function createChatReader(fetch: typeof window.fetch): ChatReader {
  return async (chatId, drawn) => {
    const chat = await createOpenWebuiApi(fetch, pageToken, userOfToken(pageToken()) ?? '').readChat(chatId);
    return { title: chat.title, answers: answersOf(chat.messages, shownBranch(chat.messages, drawn, chat.currentId)) };
  };
}
