/**
 * One MutationObserver for the chat: a mutation only marks its message as pending (a cheap
 * lookup), and pending messages are handled together: in the next task when one of them has
 * just finished (its buttons appear with its final text; not requestAnimationFrame, which a
 * hidden or background page never runs); at most every STREAMING_PASS_MS, when the browser is
 * idle, while one streams (it changes at every token, and only its source list can change);
 * else when the browser is idle (a chat being opened: Open WebUI paints it first), a few
 * answers per task.
 */

import { MESSAGES } from './answer.js';

const STREAMING_PASS_MS = 200;
// Longest run of answers handled in one task: half a frame.
const SLICE_MS = 8;

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
  if (!message || message.querySelector('.chat-assistant') === null) return null;
  answerOf.set(node, message);
  return message;
}

export function observeMessages(
  handle: (message: HTMLElement) => void,
  signal: AbortSignal,
  timing: (message: HTMLElement) => Timing,
): (message: HTMLElement) => void {
  const pending = new Set<HTMLElement>();
  let idleScheduled = false;
  let soonScheduled = false;
  const idle = window.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 16));
  const run = (): void => {
    idleScheduled = soonScheduled = false;
    // In slices: a chat opened brings hundreds of answers, and the page must stay responsive.
    const until = performance.now() + SLICE_MS;
    // A finished answer first, then the last answers: a chat opens at its end.
    const finished: HTMLElement[] = [];
    const others: HTMLElement[] = [];
    for (const message of [...pending].reverse()) (timing(message) === 'now' ? finished : others).push(message);
    for (const message of [...finished, ...others]) {
      pending.delete(message);
      if (message.isConnected) handle(message);
      if (pending.size && performance.now() > until) {
        idleScheduled = true;
        idle(run, { timeout: 40 });
        return;
      }
    }
  };
  const schedule = (message: HTMLElement): void => {
    pending.add(message);
    if (soonScheduled) return; // every pending message is handled in the next task
    const when = timing(message);
    if (when === 'now') {
      soonScheduled = true;
      setTimeout(run, 0);
    } else if (!idleScheduled) {
      idleScheduled = true;
      if (when === 'streaming') setTimeout(() => idle(run, { timeout: 40 }), STREAMING_PASS_MS);
      else idle(run, { timeout: 40 });
    }
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
    changed.forEach((message) => pending.has(message) || schedule(message));
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  signal.addEventListener('abort', () => observer.disconnect());
  document.querySelectorAll<HTMLElement>(MESSAGES).forEach((m) => messageOf(m) && schedule(m));
  return schedule;
}
