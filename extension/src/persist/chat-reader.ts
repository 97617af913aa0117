/**
 * The chat open on the page, read for an export: its title and the answers of the branch the
 * user sees, in order, each with the question it answers. Read as persist reads a chat
 * (openwebui.ts), with the page's session: only ever the signed-in user's own request.
 */

import type { StoredMessage } from '../capture/hub.js';
import { messageText } from '../capture/message-text.js';
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

export type ChatReader = (chatId: string) => Promise<ReadChat>;

// A crafted chat's parent links may loop or run on: the walk stops.
const MAX_MESSAGES = 5_000;

const isMessage = (value: unknown): value is StoredMessage & { role?: unknown } =>
  typeof value === 'object' && value !== null;

/** The answers on the way from the first message to `currentId`, as Open WebUI shows the chat. */
export function branchOf(messages: Record<string, unknown>, currentId: unknown): ChatTurn[] {
  const path: [string, StoredMessage][] = [];
  const seen = new Set<string>();
  let id = currentId;
  while (typeof id === 'string' && Object.hasOwn(messages, id) && !seen.has(id) && path.length < MAX_MESSAGES) {
    const message = messages[id];
    if (!isMessage(message)) break;
    seen.add(id);
    path.push([id, message]);
    id = message.parentId;
  }
  path.reverse();
  return path.flatMap(([messageId, message], k) => {
    if (message.role !== 'assistant') return [];
    const parent = path[k - 1]?.[1];
    const question = parent?.role === 'user' ? (messageText(parent) ?? null) : null;
    return [{ messageId, question, message }];
  });
}

export function createChatReader(fetch: typeof window.fetch): ChatReader {
  return async (chatId) => {
    const chat = await createOpenWebuiApi(fetch, pageToken, userOfToken(pageToken()) ?? '').readChat(chatId);
    return { title: chat.title, answers: branchOf(chat.messages, chat.currentId) };
  };
}
