/**
 * Which tab stores an answer's citations: the tab that asked for the answer. It takes the
 * answer's store lock (Web Locks, shared by the tabs of this browser) when it asks and keeps
 * it until it has stored; another tab showing the chat waits for that lock, then finds the
 * citations stored. When the asking tab closes, gives up, or holds it too long, the lock
 * passes on. Two tabs storing at once would race the asking tab's write-back of the chat
 * (see capture/chat-activity.ts) and could store twice.
 */

export const storeLock = (messageId: string): string => `owui-citations:store:${messageId}`;

export interface Claims {
  /** This tab asked for the answer: it holds the answer's store lock from now on. */
  claim(messageId: string): void;
  /** Whether this tab asked for the answer. */
  claimed(messageId: string): boolean;
  /** Lets the lock go: stored, or nothing to store. */
  release(messageId: string): void;
  /** Lets every lock go: this tab stores nothing more (persist turned off). */
  releaseAll(): void;
}

export function createClaims(holdMs: number): Claims {
  const releases = new Map<string, () => void>();
  const release = (messageId: string): void => {
    releases.get(messageId)?.();
    releases.delete(messageId);
  };
  return {
    claim(messageId) {
      if (releases.has(messageId)) return;
      let letGo = (): void => {};
      const held = new Promise<void>((resolve) => (letGo = resolve));
      releases.set(messageId, letGo);
      void navigator.locks?.request(storeLock(messageId), () => held);
      setTimeout(() => release(messageId), holdMs);
    },
    claimed: (messageId) => releases.has(messageId),
    release,
    releaseAll: () => [...releases.keys()].forEach(release),
  };
}
