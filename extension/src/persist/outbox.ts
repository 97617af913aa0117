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

import { warnOnce } from '../guard.js';
import { isId } from '../ids.js';
import { isSourceEventBody } from './shape.js';

const PREFIX = 'owui-citations:outbox:';
/** An entry's key: its user and its message (two users of one browser may wait on one message id:
 * a cloned chat keeps them). Ids hold no ':' (ids.ts), so no two entries share a key. */
const keyOf = (userId: string, messageId: string): string => `${PREFIX}${userId}:${messageId}`;
/** The key of earlier versions, by message alone. Their entries name their user as these do, and
 * are delivered where they are, to that user: what a user was shown is not lost at the upgrade. */
const legacyKeyOf = (messageId: string): string => PREFIX + messageId;
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
  /** The JSON body of the source event to store (shape.ts), and never any other event. */
  body: string;
  /** The sources came in Open WebUI's own shape: kept by Open WebUI (streamed, its own RAG),
   * they are not stored again; only what it did not keep (a non-streamed body's) is. */
  openWebuiShape?: true;
}

export interface Outbox {
  put(pending: Pending): void;
  remove(userId: string, messageId: string): void;
  /** What earlier pages left for this user; drops what is too old or unreadable, keeps other users'. */
  pending(userId: string): Pending[];
}

type Entry = Partial<Pending & { at: number }>;

const outboxKeys = (storage: Storage): string[] =>
  Array.from({ length: storage.length }, (_, i) => storage.key(i)).filter(
    (key): key is string => key?.startsWith(PREFIX) ?? false,
  );

/** The entry under `key`, or null: unreadable, or larger than the outbox could ever have written. */
function readEntry(storage: Storage, key: string): Entry | null {
  const text = storage.getItem(key);
  if (text === null || text.length > MAX_OUTBOX_CHARS) return null;
  try {
    const entry: unknown = JSON.parse(text);
    return typeof entry === 'object' ? (entry as Entry | null) : null;
  } catch {
    return null;
  }
}

// A body that is not a source event was written by someone else: it is never posted.
const refuseBody = (): void =>
  warnOnce('persist:outbox-body', 'an outbox entry that is not a source event was dropped, not stored.');

export function createOutbox(storage: Storage, now: () => number = Date.now): Outbox {
  return {
    put(pending) {
      const key = keyOf(pending.userId, pending.messageId);
      const entry = JSON.stringify({ ...pending, at: now() });
      const others = outboxKeys(storage).filter((other) => other !== key);
      const used = others.reduce((sum, other) => sum + other.length + (storage.getItem(other)?.length ?? 0), 0);
      if (used + key.length + entry.length > MAX_OUTBOX_CHARS) return; // stored now or never, as before the outbox
      if (!isSourceEventBody(pending.body)) return refuseBody();
      try {
        storage.setItem(key, entry);
      } catch {
        // Full all the same (Open WebUI's own keys): stored now or never.
      }
    },
    remove(userId, messageId) {
      storage.removeItem(keyOf(userId, messageId));
      const legacy = legacyKeyOf(messageId);
      if (readEntry(storage, legacy)?.userId === userId) storage.removeItem(legacy);
    },
    pending(userId) {
      const pending: Pending[] = [];
      const seen = new Set<string>();
      for (const key of outboxKeys(storage)) {
        const entry = readEntry(storage, key);
        const usable =
          isId(entry?.userId) &&
          isId(entry.chatId) &&
          isId(entry.messageId) &&
          (key === keyOf(entry.userId, entry.messageId) || key === legacyKeyOf(entry.messageId)) &&
          typeof entry.body === 'string' &&
          typeof entry.at === 'number' &&
          now() - entry.at < MAX_AGE_MS;
        if (!usable) {
          storage.removeItem(key);
          continue;
        }
        const { userId: owner, chatId, messageId, body, openWebuiShape } = entry as Required<Entry>;
        if (!isSourceEventBody(body)) {
          storage.removeItem(key);
          refuseBody();
        } else if (owner === userId && !seen.has(messageId)) {
          seen.add(messageId); // left under both keys (by a tab of each version): stored once
          pending.push({ userId, chatId, messageId, body, ...(openWebuiShape === true ? { openWebuiShape } : {}) });
        }
      }
      return pending;
    },
  };
}
