/**
 * Stores captured citations on their message, exactly once: after the answer is finished and
 * the page has written the chat back, by the tab that asked for the answer first (claims.ts),
 * under a lock shared by every tab of this browser (Web Locks), and only when the stored
 * chat does not hold them yet. Never for temporary chats, nor for sources Open WebUI stored
 * itself (its RAG, web search). A page that goes away before they are stored leaves them in the
 * outbox (outbox.ts), for the next page to store: a reload in that moment loses nothing.
 */

import type { ChatActivity } from '../capture/chat-activity.js';
import { messageText } from '../capture/message-text.js';
import type { Hub, MessageState, StoredMessage } from '../capture/hub.js';
import { fail, guard } from '../guard.js';
import { createClaims, storeLock } from './claims.js';
import { createOutbox, type Pending } from './outbox.js';
import { hasStoredCitations, toNativeSource } from './shape.js';

const isTemporary = (chatId: string): boolean => chatId.startsWith('local:') || chatId === 'local';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SETTLE_TIMEOUT_MS = 10_000;
// Before storing again what a write-back erased: the page's copy holds it, and its next write
// (the user sending, typically within seconds) puts it back; only a quiet page needs a POST.
const RESTORE_QUIET_MS = 5000;
const RESTORE_TIMEOUT_MS = 60_000;
// An answer that streams longer than this no longer keeps the other tabs from storing it.
const CLAIM_MS = 5 * 60_000;

export function startStore(hub: Hub, fetch: typeof window.fetch, activity: ChatActivity): void {
  const started = new Set<string>();
  const claims = createClaims(CLAIM_MS);
  const outbox = createOutbox(localStorage);
  // Started and not stored yet: written to the outbox only if the page goes away meanwhile (a
  // write per answer would cost every answer; 5 ms for 400 sources).
  const unsaved = new Map<string, Pending>();
  window.addEventListener('pagehide', guard('persist', () => unsaved.forEach(outbox.put)));
  activity.onAsk(guard('persist', claims.claim));
  const headers = (): Record<string, string> => ({
    'Content-Type': 'application/json',
    Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
  });

  /** The message as stored; which message the stored chat opens at (its `currentId`); and the
   * newest message of the chat (messages are kept in the order they were created). */
  async function storedMessage(chatId: string, messageId: string): Promise<{ message: StoredMessage | null; current: unknown; newest: string | undefined }> {
    const response = await fetch(`/api/v1/chats/${chatId}`, { headers: headers() });
    if (!response.ok) return { message: null, current: null, newest: undefined };
    const history = (await response.json())?.chat?.history;
    const messages: Record<string, StoredMessage> = history?.messages ?? {};
    return { message: messages[messageId] ?? null, current: history?.currentId, newest: Object.keys(messages).at(-1) };
  }

  /** Up to 0.10 Open WebUI makes the message an event is stored on the chat's current one, so
   * the chat would open at that older answer (one regenerated since, say), hiding the later
   * ones: an empty text event on the newest message puts the chat back there, and changes
   * nothing else. Not the message current before our event: the page may not have written its
   * newer current yet when we read it (measured on 0.8.12, a regenerated last answer). */
  async function keepCurrent(chatId: string, messageId: string, current: unknown, newest: string | undefined): Promise<void> {
    if (current !== messageId || newest === undefined || newest === messageId) return;
    const body = JSON.stringify({ type: 'message', data: { content: '' } });
    await fetch(`/api/v1/chats/${chatId}/messages/${newest}/event`, { method: 'POST', headers: headers(), body });
  }

  /** `left`: what an earlier page left in the outbox; this page has no raw data to show it from. */
  async function store({ chatId, messageId, body }: Pending, left = false): Promise<void> {
    const url = `/api/v1/chats/${chatId}/messages/${messageId}/event`;
    /** Whether the citations are stored (or were posted as often as it makes sense). */
    const work = async (): Promise<boolean> => {
      let posts = 0;
      let settledAgain = false;
      for (let attempt = 0; attempt < 20; attempt++) {
        const { message } = await storedMessage(chatId, messageId);
        if (message && hasStoredCitations(message.sources)) {
          // stored: by us, or by another tab
          if (left) hub.setStored(messageId, chatId, message);
          return true;
        }
        // Open WebUI saves the finished message a moment after announcing it: wait for it.
        if (message && messageText(message)) {
          // Open WebUI appends each source read-modify-write: one written at the same moment
          // (its own url_citation sources, or the page writing the chat back) can erase ours.
          // Check again once the writes settle.
          if (posts === 3) return true;
          if (posts > 0 && !settledAgain) {
            // The page's next write, made from its copy that holds our source, may be putting
            // it back: posting it too would store it twice. Look again once the page is quiet.
            settledAgain = true;
            await activity.settled(chatId, RESTORE_TIMEOUT_MS, RESTORE_QUIET_MS);
            continue;
          }
          posts++;
          settledAgain = false;
          await fetch(url, { method: 'POST', headers: headers(), body });
          // At once: a page closed or reloaded a second later must not leave the chat opening there.
          const { current, newest } = await storedMessage(chatId, messageId);
          await keepCurrent(chatId, messageId, current, newest);
          await pause(1000);
          continue;
        }
        await pause(250);
      }
      return false; // not saved yet, or not readable (signed out): for the outbox
    };
    let stored: boolean;
    unsaved.set(messageId, { chatId, messageId, body });
    // Stored while a page writes the chat back, our source would be erased or doubled
    // (chat-activity.ts): this page, or the one that left it in the outbox just before closing.
    if (claims.claimed(messageId) || left) await activity.settled(chatId, SETTLE_TIMEOUT_MS);
    if (claims.claimed(messageId)) stored = await work().finally(() => claims.release(messageId));
    else if (navigator.locks) stored = await navigator.locks.request(storeLock(messageId), work);
    else stored = await work();
    if (!stored) return;
    unsaved.delete(messageId);
    outbox.remove(messageId);
  }

  const start = (pending: Pending, left = false): void => {
    if (started.has(pending.messageId)) return;
    started.add(pending.messageId);
    void store(pending, left).catch((error: unknown) => fail('persist', error));
  };

  hub.subscribe(guard('persist', (state: MessageState) => {
    if (!state.done || !state.chatId || started.has(state.messageId)) return;
    const { format, citations } = hub.citations(state.messageId);
    if (isTemporary(state.chatId) || !format || format === 'open-webui' || citations.length === 0) {
      return claims.release(state.messageId);
    }
    start({ chatId: state.chatId, messageId: state.messageId, body: JSON.stringify({ type: 'source', data: toNativeSource(citations) }) });
  }));
  for (const pending of outbox.left()) start(pending, true);
}
