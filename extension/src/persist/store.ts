/**
 * Stores captured citations on their message, exactly once: only answers this page saw being
 * answered (never a chat merely opened: a viewer, an admin reading someone's chat, writes
 * nothing), and only into the user's own chats; after the answer is finished and
 * the page has written the chat back, by the tab that asked for the answer first (claims.ts),
 * under a lock shared by every tab of this browser (Web Locks), and only when the stored
 * chat does not hold them yet (delivery.ts, which also retries what fails). Never for temporary
 * chats, nor for sources Open WebUI stored itself (its RAG, web search). A page that goes away
 * before they are stored leaves them in the outbox (outbox.ts), for the next page signed in as
 * the same user to store: a reload in that moment loses nothing.
 */

import { keepLast } from '../bounded.js';
import type { ChatActivity } from '../capture/chat-activity.js';
import type { Hub, MessageState } from '../capture/hub.js';
import { fail, guard, onDisable } from '../guard.js';
import { whenIdle } from '../idle.js';
import { createClaims, storeLock } from './claims.js';
import { type DeliveryDeps, deliver, type Outcome } from './delivery.js';
import { createOpenWebuiApi } from './openwebui.js';
import { createOutbox, type Pending } from './outbox.js';
import { pageToken, userOfToken } from './session.js';
import { sourceEventBody } from './shape.js';

// A temporary chat's id in events, `local:<socket id>`, is no id (ids.ts) and reaches the hub as no chat.
const isTemporary = (chatId: string): boolean => chatId === 'local';
// An answer that streams longer than this no longer keeps the other tabs from storing it.
const CLAIM_MS = 5 * 60_000;
// The sign-in request is answered before the app keeps the new token: look a moment later.
const AFTER_SIGN_IN_MS = 1000;
// Signed out, the session is looked at again this often all the same (a sign-in this page
// cannot see: an OAuth flow in another window, say).
const SESSION_CHECK_MS = 30_000;
// Answers started in this page, remembered so that a finished answer is stored once.
const MAX_STARTED = 1000;

/** An answer to store, in this page: two users' answers may share a message id (a cloned chat). */
const answerKey = ({ userId, messageId }: { userId: string; messageId: string }): string => `${userId}:${messageId}`;

/** `make()`'s value, made at the first call. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/** A promise resolved after `ms`, or at once when `stop` aborts. */
function sleeper(stop: AbortSignal): (ms: number) => Promise<void> {
  return (ms) =>
    new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        stop.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      stop.addEventListener('abort', done);
    });
}

/** A promise for the next time `fire` is called. */
function nextEvent(): { fire(): void; next(): Promise<void> } {
  let resolve = (): void => {};
  let promise = new Promise<void>((done) => (resolve = done));
  return {
    fire() {
      resolve();
      promise = new Promise<void>((done) => (resolve = done));
    },
    next: () => promise,
  };
}

export function startStore(hub: Hub, fetch: typeof window.fetch, activity: ChatActivity): void {
  const started = new Set<string>();
  const claims = createClaims(CLAIM_MS);
  const outbox = createOutbox(localStorage);
  // Started and not stored yet: written to the outbox only if the page goes away meanwhile (a
  // write per answer would cost every answer, a large one most), or once storing fails. What is
  // stored is built when first needed: after the answer's buttons are drawn, or as the page goes.
  const unsaved = new Map<string, () => Pending>();
  const leaveUnsaved = (): void => unsaved.forEach((pending) => outbox.put(pending()));
  // Turned off (after an error of its own): what is not stored yet waits for the next page, and
  // every request, sleep and listener of persist ends here.
  const stopping = new AbortController();
  const stop = stopping.signal;
  const sleep = sleeper(stop);
  onDisable('persist', () => {
    leaveUnsaved();
    claims.releaseAll();
    stopping.abort();
  });
  window.addEventListener('pagehide', guard('persist', leaveUnsaved), { signal: stop });
  const token = pageToken;
  // The user whose answers this page stores: the one signed in when an answer finishes, or
  // last signed in — looked at when an answer is asked for too, so that a session expiring as
  // the answer streams leaves it the asker's, stored once they sign in again.
  let user: string | null = null;
  const currentUser = (): string | null => (user = userOfToken(token()) ?? user);
  activity.onAsk(
    guard('persist', (messageId: string) => {
      currentUser();
      claims.claim(messageId);
    }),
  );
  const signIns = nextEvent();
  const online = nextEvent();
  // Signed in (as the same user or another): what earlier pages left for that user is stored now.
  const signedIn = guard('persist', () => {
    signIns.fire();
    replayOutbox();
  });
  activity.onSignIn(() => setTimeout(signedIn, AFTER_SIGN_IN_MS));
  window.addEventListener('storage', (event) => event.key === 'token' && event.newValue && signedIn(), {
    signal: stop,
  });
  window.addEventListener('online', online.fire, { signal: stop });

  async function store(pending: Pending, fromOutbox: boolean): Promise<void> {
    const { chatId, messageId } = pending;
    const deps: DeliveryDeps = {
      api: createOpenWebuiApi(fetch, token, pending.userId, stop),
      settled: activity.settled,
      sleep,
      signedIn: () => Promise.race([signIns.next(), sleep(SESSION_CHECK_MS)]),
      online: online.next,
      random: Math.random,
      onStored: fromOutbox ? (message) => hub.setStored(messageId, chatId, message) : undefined,
      onTrouble: () => outbox.put(pending),
      stop,
    };
    // Stored while a page writes the chat back, our source would be erased or doubled
    // (chat-activity.ts): this page, or the one that left it in the outbox just before closing.
    const settleFirst = claims.claimed(messageId) || fromOutbox;
    const work = () => deliver(pending, deps, settleFirst);
    let outcome: Outcome;
    if (claims.claimed(messageId)) outcome = await work().finally(() => claims.release(messageId));
    else if (navigator.locks) outcome = await navigator.locks.request(storeLock(messageId), work);
    else outcome = await work();
    if (outcome === 'unsaved') return; // for the outbox, should the page go away
    unsaved.delete(answerKey(pending));
    outbox.remove(pending.userId, messageId);
    // Only now: stored, the answer is saved and finished for good (a stored copy read while it
    // was still being answered can look finished, and its sources may still be on their way).
    hub.settle(messageId);
  }

  const start = (answer: { userId: string; messageId: string }, pending: () => Pending, fromOutbox = false): void => {
    const key = answerKey(answer);
    if (started.has(key)) return;
    started.add(key);
    keepLast(started, MAX_STARTED);
    unsaved.set(key, pending);
    // Nothing the answer's buttons wait for: storing waits for the chat to settle anyway.
    whenIdle(
      guard('persist', () => {
        if (!stop.aborted) void store(pending(), fromOutbox).catch((error: unknown) => fail('persist', error));
      }),
      1000,
    );
  };

  hub.subscribe(
    guard('persist', (state: MessageState) => {
      if (!state.done || !state.live || !state.chatId) return;
      const userId = currentUser();
      if (userId && started.has(answerKey({ userId, messageId: state.messageId }))) return;
      const { format, citations } = hub.citations(state.messageId);
      if (!userId || isTemporary(state.chatId) || !format || citations.length === 0) {
        return claims.release(state.messageId);
      }
      const { chatId, messageId } = state;
      const shape = format === 'open-webui' ? { openWebuiShape: true as const } : {};
      start(
        { userId, messageId },
        once(() => ({ userId, chatId, messageId, body: sourceEventBody(citations), ...shape })),
      );
    }),
  );
  function replayOutbox(): void {
    const userId = userOfToken(token());
    if (userId) for (const pending of outbox.pending(userId)) start(pending, () => pending, true);
  }
  replayOutbox();
}
