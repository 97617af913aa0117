/**
 * Answers on a user's direct connection: Open WebUI asks the page (`request:chat:completion`,
 * with the request's `form_data`) to call the upstream itself. Each request the page then sends
 * is paired with its answer's message by what it asks (its messages), not by order, and is
 * taken when sent: a request that fails or is aborted leaves nothing for the next one.
 */

export interface DirectTarget {
  messageId: string;
  chatId: string | null;
}

// Requests announced but never sent (the page failed before fetching) are forgotten past this.
const MAX_PENDING = 20;

/** What identifies a request: its messages, as JSON (Open WebUI sends `form_data` as the body). */
function identity(body: unknown): string | null {
  const messages = typeof body === 'object' && body !== null ? (body as { messages?: unknown }).messages : undefined;
  return Array.isArray(messages) ? JSON.stringify(messages) : null;
}

export interface DirectRequests {
  /** Open WebUI announced a direct request for this answer. */
  announce(target: DirectTarget, formData: unknown): void;
  /** The page sends a request body: the answer it is for, taken from the announced ones, if any. */
  take(requestBody: string): DirectTarget | null;
}

export function createDirectRequests(): DirectRequests {
  const pending: Array<{ target: DirectTarget; key: string }> = [];
  return {
    announce(target, formData) {
      const key = identity(formData);
      if (key === null) return;
      pending.push({ target, key });
      if (pending.length > MAX_PENDING) pending.shift();
    },
    take(requestBody) {
      let key: string | null;
      try {
        key = identity(JSON.parse(requestBody));
      } catch {
        return null;
      }
      const at = pending.findIndex((entry) => entry.key === key);
      return at < 0 ? null : pending.splice(at, 1)[0]!.target;
    },
  };
}
