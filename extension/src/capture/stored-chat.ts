/**
 * A stored chat the page fetched (`GET /api/v1/chats/<id>`, or a shared link's), read into the
 * hub in steps: a chat opened brings hundreds of answers at once while the page draws it. A step
 * records one answer (its text, its stored sources as they are); the sources are parsed when the
 * answer is drawn (hub.ts).
 */

import { guardSteps } from '../guard.js';
import { inSlices } from '../idle.js';
import { isId } from '../ids.js';
import type { Hub, StoredMessage } from './hub.js';

export interface StoredChat {
  id?: string;
  chat?: { history?: { messages?: Record<string, StoredMessage & { role?: string }> } };
}

/** A chat's keys are whatever its writer chose (a cloned share, an imported file): only ids are read. */
function* storedAnswers(hub: Hub, chatId: string, chat: StoredChat): Generator<void> {
  const messages = chat.chat?.history?.messages ?? {};
  for (const [messageId, message] of Object.entries(messages)) {
    if (message?.role === 'assistant' && isId(messageId)) {
      hub.setStored(messageId, chatId, message);
      yield;
    }
  }
}

/** Reads a stored chat into `hub`, in slices (idle.ts). A copy fetched again while the last is
 * read is read beside it: the older one, ahead, is overwritten by the newer. */
export function readStoredChat(hub: Hub, chat: StoredChat | null): void {
  if (chat && isId(chat.id)) inSlices(guardSteps('capture', storedAnswers(hub, chat.id, chat)));
}
