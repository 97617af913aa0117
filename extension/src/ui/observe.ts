/**
 * One MutationObserver for the chat: a mutation only marks its message as pending (a cheap
 * lookup), and pending messages are handled together: at once when one of them has just
 * finished (its buttons appear with its final text, in the same frame); at most every
 * STREAMING_PASS_MS, when the browser is idle, while one streams (it changes at every token, and
 * only its source list can change); else when the browser is idle (a chat being opened: Open
 * WebUI paints it first).
 *
 * A message's pass is a series of steps (message.ts), run in slices of at most SLICE_MS (idle.ts):
 * no task of ours holds the page for a frame, however long the answer. A finished answer's next
 * slice follows at once (`soon`), the others' in idle time; a finished
 * answer's pass goes before any other, even one begun before it. A
 * message changed while its pass runs (by Open WebUI, or by the pass itself) is passed over
 * again once it ends: a pass is idempotent, and skips what the last one did.
 */

import { isAnswer, MESSAGES } from '../host/answers.js';
import { SLICE_MS, soon, whenIdle } from '../idle.js';

const STREAMING_PASS_MS = 200;
// Idle time waited for at most: a chat opened is drawn within a few frames even on a busy page.
const IDLE_TIMEOUT_MS = 40;

/** When a message's pass runs: see above. */
export type Timing = 'now' | 'streaming' | 'idle';

// A streamed token changes the same few nodes of one answer: a node found in an answer is
// not looked up again (Svelte does not move a node from one message to another).
const answerOf = new WeakMap<Node, HTMLElement>();

function messageOf(node: Node): HTMLElement | null {
  const known = answerOf.get(node);
  if (known) return known;
  const element = node instanceof Element ? node : node.parentElement;
  const message = element?.closest<HTMLElement>(MESSAGES);
  if (!message || !isAnswer(message)) return null;
  answerOf.set(node, message);
  return message;
}

export function observeMessages(
  passOver: (message: HTMLElement) => Iterator<unknown> | undefined,
  signal: AbortSignal,
  timing: (message: HTMLElement) => Timing,
): (message: HTMLElement) => void {
  const pending = new Set<HTMLElement>();
  // Passes cut by the end of a slice, in the order they began.
  const running = new Map<HTMLElement, Iterator<unknown>>();
  let idleScheduled = false;
  let soonScheduled = false;
  // A finished answer's first slice runs right after the hub's word that it is done (read right
  // after Open WebUI handled its last frame), before the browser paints: its buttons come with
  // that frame, not a frame later. Asked for by the page's own changes, which may have taken their
  // task's share already (a long answer drawn), and the rest of a pass: in tasks of their own.
  const runSoon = (first = false): void => {
    soonScheduled = true;
    if (first) queueMicrotask(run);
    else soon(run);
  };
  const runIdle = (delayMs = 0): void => {
    idleScheduled = true;
    const later = () => whenIdle(run, IDLE_TIMEOUT_MS);
    if (delayMs) setTimeout(later, delayMs);
    else later();
  };
  // The rest of a pass cut by the end of a slice: at once for a finished answer, else when idle.
  const next = (): void => {
    if (soonScheduled || idleScheduled) return;
    if ([...running.keys(), ...pending].some((message) => timing(message) === 'now')) runSoon();
    else runIdle();
  };
  const run = (): void => {
    idleScheduled = soonScheduled = false;
    const until = performance.now() + SLICE_MS;
    // A finished answer's pass first, begun or not: its user waits for its buttons, not for a chat
    // being drawn in idle time. Then passes begun, then the last answers: a chat opens at its end.
    const isNow = (message: HTMLElement): boolean => timing(message) === 'now';
    const begun = [...running.keys()];
    const finished: HTMLElement[] = [];
    const others: HTMLElement[] = [];
    for (const message of [...pending].reverse()) (isNow(message) ? finished : others).push(message);
    const order = [...begun.filter(isNow), ...finished, ...begun.filter((message) => !isNow(message)), ...others];
    for (const message of order) {
      let pass = running.get(message);
      if (!pass) {
        if (!pending.delete(message) || !message.isConnected) continue;
        pass = passOver(message);
      }
      running.delete(message);
      while (pass) {
        if (performance.now() > until) {
          running.set(message, pass);
          next();
          return;
        }
        if (pass.next().done) pass = undefined;
      }
    }
  };
  const schedule = (message: HTMLElement, inline = true): void => {
    pending.add(message);
    if (soonScheduled) return; // every pending message is handled in the next task
    const when = timing(message);
    if (when === 'now') runSoon(inline);
    else if (!idleScheduled) runIdle(when === 'streaming' ? STREAMING_PASS_MS : 0);
  };
  const observer = new MutationObserver((records) => {
    // A streamed token brings many records of the same few nodes: each node is looked up once,
    // each message scheduled once.
    const messageAt = new Map<Node, HTMLElement | null>();
    const changed = new Set<HTMLElement>();
    for (const record of records) {
      let message = messageAt.get(record.target);
      if (message === undefined) {
        message = messageOf(record.target);
        messageAt.set(record.target, message);
      }
      if (message) changed.add(message);
      else if (record.addedNodes.length) {
        // A chat opened or navigated to: all its messages at once.
        for (const node of record.addedNodes) {
          if (!(node instanceof HTMLElement)) continue;
          const messages = node.matches(MESSAGES) ? [node] : node.querySelectorAll<HTMLElement>(MESSAGES);
          messages.forEach((m) => messageOf(m) && changed.add(m));
        }
      }
    }
    // A pending message needs nothing more: when it finishes, the hub's change schedules it again.
    changed.forEach((message) => pending.has(message) || schedule(message, false));
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  signal.addEventListener('abort', () => observer.disconnect());
  document.querySelectorAll<HTMLElement>(MESSAGES).forEach((m) => messageOf(m) && schedule(m, false));
  return schedule;
}
