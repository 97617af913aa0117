/**
 * Stores one answer's citations on its message, as a state machine: each state does one thing
 * (wait for the page's writes to settle, read the chat, post the source, check it landed) and
 * `next` is the one place that decides what comes after. A transient failure is retried, with
 * backoff and jitter, for as long as the page lives; a 401 waits for the user to sign in again;
 * only a bug of ours ends it with an exception.
 *
 * Why the waits: Open WebUI saves a finished message a moment after announcing it, and up to
 * 0.11 the page writes its whole copy of the chat back after an answer (and whenever the user
 * sends). A source stored while such a write is on its way is erased by it, so the source is
 * stored once the chat is quiet, and stored again (at most three times in all) if a write erased
 * it anyway; before posting again, the page's next write, made from its copy that holds our
 * source, may be putting it back.
 */

import { backoffMs } from '../backoff.js';
import type { StoredMessage } from '../capture/hub.js';
import { messageText } from '../host/message-text.js';
import { isId } from '../ids.js';
import { failureKind, type OpenWebuiApi, type StoredChat } from './openwebui.js';
import type { Pending } from './outbox.js';
import { hasSources, hasStoredCitations } from './shape.js';

/** stored (by us or another tab); posted as often as it makes sense; gone (the chat was deleted,
 * is not the user's to write, or Open WebUI refuses the source); unsaved (Open WebUI never saved the message: left for a later page). */
export type Outcome = 'stored' | 'posted' | 'gone' | 'unsaved';

export interface DeliveryDeps {
  api: OpenWebuiApi;
  /** Resolves once no write of the chat is on its way and none landed for `quietMs` (chat-activity.ts). */
  settled(chatId: string, timeoutMs: number, quietMs?: number): Promise<void>;
  sleep(ms: number): Promise<void>;
  /** Resolve at the next sign-in, and when the browser is back online. */
  signedIn(): Promise<void>;
  online(): Promise<void>;
  random(): number;
  /** A read found the citations stored (the page has no raw data for an answer an earlier page left). */
  onStored?(message: StoredMessage): void;
  /** The first failure: from now on the answer waits in the outbox too, in case the page goes away. */
  onTrouble?(): void;
  /** Persist turned off: no state runs after, and the answer is left unsaved (for a later page). */
  stop?: AbortSignal;
}

type State =
  | { name: 'settling'; timeoutMs: number; quietMs?: number }
  | { name: 'reading' }
  | { name: 'posting' }
  | { name: 'checking' }
  | { name: 'backing-off'; retry: State }
  | { name: 'signed-out'; retry: State }
  | { name: 'finished'; outcome: Outcome };

/** What a state's action observed. */
type Observation =
  | { kind: 'done' }
  | { kind: 'read'; message: StoredMessage | null; stored: boolean; writable: boolean }
  | { kind: 'failed'; failure: 'transient' | 'unauthorised' | 'refused' }
  | { kind: 'session'; signedIn: boolean };

const SETTLE_TIMEOUT_MS = 10_000;
// Before storing again what a write-back erased: the page's copy holds it, and its next write
// (the user sending, typically within seconds) puts it back; only a quiet page needs a POST.
const RESTORE_QUIET_MS = 5000;
const RESTORE_TIMEOUT_MS = 60_000;
const MAX_POSTS = 3;
// Open WebUI saves the finished message within a second or two; not saved after this many
// reads (about half a minute), it is left for a later page.
const UNSAVED_READS = 40;
const BACKOFF_BASE_MS = 1000;
const BACKOFF_MAX_MS = 10_000;
const CHECK_AFTER_POST_MS = 1000;

interface DeliveryCounters {
  posts: number;
  settledAgain: boolean;
  unsavedReads: number;
  failures: number;
}

/** The next state, from the state just run and what it observed. */
function next(state: State, seen: Observation, memory: DeliveryCounters): State {
  if (seen.kind === 'failed') {
    memory.failures++;
    if (seen.failure === 'refused') return { name: 'finished', outcome: 'gone' };
    // A post whose answer was lost may have landed: read before posting again.
    const retry: State = state.name === 'posting' ? { name: 'reading' } : state;
    return seen.failure === 'transient' ? { name: 'backing-off', retry } : { name: 'signed-out', retry };
  }
  switch (state.name) {
    case 'settling':
      return { name: 'reading' };
    case 'backing-off':
      return state.retry;
    case 'signed-out':
      return seen.kind === 'session' && seen.signedIn ? { name: 'finished', outcome: 'gone' } : state.retry;
    case 'posting':
      memory.failures = 0;
      return { name: 'checking' };
    case 'checking':
      return { name: 'reading' };
    case 'reading': {
      memory.failures = 0;
      const message = seen.kind === 'read' ? seen.message : null;
      if (seen.kind === 'read' && seen.stored) return { name: 'finished', outcome: 'stored' };
      if (seen.kind === 'read' && !seen.writable) return { name: 'finished', outcome: 'gone' };
      if (!message || !messageText(message)) {
        return ++memory.unsavedReads >= UNSAVED_READS ? { name: 'finished', outcome: 'unsaved' } : { name: 'reading' };
      }
      if (memory.posts === MAX_POSTS) return { name: 'finished', outcome: 'posted' };
      if (memory.posts > 0 && !memory.settledAgain) {
        memory.settledAgain = true;
        return { name: 'settling', timeoutMs: RESTORE_TIMEOUT_MS, quietMs: RESTORE_QUIET_MS };
      }
      memory.settledAgain = false;
      return { name: 'posting' };
    }
    case 'finished':
      return state;
  }
}

/** Up to 0.10 Open WebUI makes the message an event is stored on the chat's current one, so
 * the chat would open at that older answer (one regenerated since, say), hiding the later ones:
 * an empty text event on the newest message (messages are kept in the order they were created)
 * puts the chat back there, and changes nothing else. Not the message current before our event:
 * the page may not have written its newer current yet when we read it (measured on 0.8.12). */
function keepCurrentTarget(chat: StoredChat, messageId: string): string | null {
  const newest = Object.keys(chat.messages).at(-1);
  return chat.currentId === messageId && isId(newest) && newest !== messageId ? newest : null;
}

const KEEP_CURRENT = JSON.stringify({ type: 'message', data: { content: '' } });

export async function deliver(
  { chatId, messageId, body, openWebuiShape }: Pending,
  deps: DeliveryDeps,
  settleFirst: boolean,
): Promise<Outcome> {
  const memory: DeliveryCounters = { posts: 0, settledAgain: false, unsavedReads: 0, failures: 0 };
  /** Runs a state's action; a failure of Open WebUI or the network is observed, a bug is thrown. */
  const run = async (state: Exclude<State, { name: 'finished' }>): Promise<Observation> => {
    try {
      switch (state.name) {
        case 'settling':
          await deps.settled(chatId, state.timeoutMs, state.quietMs);
          return { kind: 'done' };
        case 'reading': {
          if (memory.unsavedReads > 0) await deps.sleep(Math.min(250 * memory.unsavedReads, 2000));
          const chat = await deps.api.readChat(chatId);
          const message = Object.hasOwn(chat.messages, messageId) ? (chat.messages[messageId] ?? null) : null;
          const stored =
            message !== null &&
            (hasStoredCitations(message.sources) || (openWebuiShape === true && hasSources(message.sources)));
          if (stored) deps.onStored?.(message);
          return { kind: 'read', message, stored, writable: chat.writable };
        }
        case 'posting':
          // false: Open WebUI could not hand the event on (its database busy, say): tried again.
          if (!(await deps.api.postEvent(chatId, messageId, body))) return { kind: 'failed', failure: 'transient' };
          memory.posts++;
          return { kind: 'done' };
        case 'checking': {
          // At once: a page closed or reloaded a second later must not leave the chat opening there.
          const newest = keepCurrentTarget(await deps.api.readChat(chatId), messageId);
          if (newest) await deps.api.postEvent(chatId, newest, KEEP_CURRENT);
          await deps.sleep(CHECK_AFTER_POST_MS);
          return { kind: 'done' };
        }
        case 'backing-off':
          await Promise.race([
            deps.sleep(backoffMs(memory.failures, BACKOFF_BASE_MS, BACKOFF_MAX_MS, deps.random)),
            deps.online(),
          ]);
          return { kind: 'done' };
        case 'signed-out': {
          // Signed in, and refused the chat all the same: it was deleted, or is no longer the
          // user's. Signed out: tried again once the user signs in (as whom the retry tells).
          const signedIn = await deps.api.signedIn();
          if (!signedIn) await deps.signedIn();
          return { kind: 'session', signedIn };
        }
      }
    } catch (error) {
      const failure = failureKind(error);
      if (failure === 'programming') throw error;
      if (memory.failures === 0) deps.onTrouble?.();
      return { kind: 'failed', failure };
    }
  };

  let state: State = settleFirst ? { name: 'settling', timeoutMs: SETTLE_TIMEOUT_MS } : { name: 'reading' };
  while (state.name !== 'finished') {
    if (deps.stop?.aborted) return 'unsaved';
    state = next(state, await run(state), memory);
  }
  return state.outcome;
}
