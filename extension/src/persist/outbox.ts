/**
 * Citations a page could not store before it went away, kept in localStorage: an answer is
 * stored a second or more after it finishes (store.ts waits for the chat's writes to settle),
 * and a reload or a closed tab in that moment would otherwise lose them for good. The next page
 * of Open WebUI, in any tab, stores what is left here.
 *
 * Each entry belongs to the user who was shown the answer, and is handed only to a page signed
 * in as that user: on a shared browser, someone else signing in neither sends it with their
 * session nor drops it. localStorage is anyone's to write: an entry is read as untrusted data.
 */

import { isId } from '../ids.js';

const PREFIX = 'owui-citations:outbox:';
// An answer whose chat was deleted or never saved: do not carry it forever.
const MAX_AGE_MS = 7 * 24 * 3600_000;
// localStorage holds about 5 MB per site, Open WebUI's own keys (its sign-in token) among them:
// the outbox never takes more than this, in characters; an answer that does not fit is not kept.
export const MAX_OUTBOX_CHARS = 1_000_000;

export interface Pending {
  /** Whose answer it was: sent only with that user's session. */
  userId: string;
  chatId: string;
  messageId: string;
  /** The JSON body of the source event to store. */
  body: string;
  /** The sources came in Open WebUI's own shape: kept by Open WebUI (streamed, its own RAG),
   * they are not stored again; only what it did not keep (a non-streamed body's) is. */
  openWebuiShape?: true;
}

export interface Outbox {
  put(pending: Pending): void;
  remove(messageId: string): void;
  /** What earlier pages left for this user; drops what is too old or unreadable, keeps other users'. */
  pending(userId: string): Pending[];
}

const outboxKeys = (storage: Storage): string[] =>
  Array.from({ length: storage.length }, (_, i) => storage.key(i)).filter(
    (key): key is string => key?.startsWith(PREFIX) ?? false,
  );

export function createOutbox(storage: Storage, now: () => number = Date.now): Outbox {
  return {
    put(pending) {
      const key = PREFIX + pending.messageId;
      const entry = JSON.stringify({ ...pending, at: now() });
      const others = outboxKeys(storage).filter((other) => other !== key);
      const used = others.reduce((sum, other) => sum + other.length + (storage.getItem(other)?.length ?? 0), 0);
      if (used + key.length + entry.length > MAX_OUTBOX_CHARS) return; // stored now or never, as before the outbox
      try {
        storage.setItem(key, entry);
      } catch {
        // Full all the same (Open WebUI's own keys): stored now or never.
      }
    },
    remove: (messageId) => storage.removeItem(PREFIX + messageId),
    pending(userId) {
      const pending: Pending[] = [];
      for (const key of outboxKeys(storage)) {
        let entry: Partial<Pending & { at: number }> | null = null;
        try {
          entry = JSON.parse(storage.getItem(key) ?? 'null');
        } catch {
          // unreadable: dropped below
        }
        const usable =
          isId(entry?.userId) &&
          isId(entry.chatId) &&
          isId(entry.messageId) &&
          key === PREFIX + entry.messageId &&
          typeof entry.body === 'string' &&
          typeof entry.at === 'number' &&
          now() - entry.at < MAX_AGE_MS;
        if (!usable) storage.removeItem(key);
        else if (entry!.userId === userId) {
          const { chatId, messageId, body, openWebuiShape } = entry!;
          pending.push({
            userId,
            chatId: chatId!,
            messageId: messageId!,
            body: body!,
            ...(openWebuiShape === true ? { openWebuiShape } : {}),
          });
        }
      }
      return pending;
    },
  };
}
