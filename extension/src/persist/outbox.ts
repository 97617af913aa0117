/**
 * Citations a page could not store before it went away, kept in localStorage: an answer is
 * stored a second or more after it finishes (store.ts waits for the chat's writes to settle),
 * and a reload or a closed tab in that moment would otherwise lose them for good. The next page
 * of Open WebUI, in any tab, stores what is left here.
 */

const PREFIX = 'owui-citations:outbox:';
// An answer whose chat was deleted or never saved: do not carry it forever.
const MAX_AGE_MS = 7 * 24 * 3600_000;

export interface Pending {
  chatId: string;
  messageId: string;
  /** The JSON body of the source event to store. */
  body: string;
}

export interface Outbox {
  put(pending: Pending): void;
  remove(messageId: string): void;
  /** What earlier pages left; drops what is too old or unreadable. */
  left(): Pending[];
}

export function createOutbox(storage: Storage, now: () => number = Date.now): Outbox {
  return {
    put(pending) {
      try {
        storage.setItem(PREFIX + pending.messageId, JSON.stringify({ ...pending, at: now() }));
      } catch {
        // Full (a body of megabytes): stored now or never, as before the outbox.
      }
    },
    remove: (messageId) => storage.removeItem(PREFIX + messageId),
    left() {
      const keys = Array.from({ length: storage.length }, (_, i) => storage.key(i)).filter((key): key is string => key?.startsWith(PREFIX) ?? false);
      const pending: Pending[] = [];
      for (const key of keys) {
        let entry: Partial<Pending & { at: number }> | null = null;
        try {
          entry = JSON.parse(storage.getItem(key) ?? 'null');
        } catch {
          // unreadable: dropped below
        }
        const usable = typeof entry?.chatId === 'string' && typeof entry.messageId === 'string' && typeof entry.body === 'string';
        if (usable && typeof entry!.at === 'number' && now() - entry!.at < MAX_AGE_MS) {
          pending.push({ chatId: entry!.chatId!, messageId: entry!.messageId!, body: entry!.body! });
        } else storage.removeItem(key);
      }
      return pending;
    },
  };
}
