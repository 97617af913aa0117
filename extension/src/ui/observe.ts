/**
 * One MutationObserver for the chat: a mutation only marks its message as pending (a cheap
 * lookup), and pending messages are handled together: in the next task when one of them has
 * just finished (its buttons appear with its final text; not requestAnimationFrame, which a
 * hidden or background page never runs), else when the browser is idle (a streaming answer
 * changes at every token).
 */

const MESSAGE = /^message-(.+)$/;

function messageOf(node: Node): HTMLElement | null {
  const element = node instanceof Element ? node : node.parentElement;
  const message = element?.closest<HTMLElement>('[id^="message-"]');
  return message && message.querySelector('.chat-assistant') !== null ? message : null;
}

export function messageId(message: HTMLElement): string | null {
  return MESSAGE.exec(message.id)?.[1] ?? null;
}

export function observeMessages(
  handle: (message: HTMLElement) => void,
  signal: AbortSignal,
  isFinished: (message: HTMLElement) => boolean,
): (message: HTMLElement) => void {
  const pending = new Set<HTMLElement>();
  let idleScheduled = false;
  let soonScheduled = false;
  const idle = window.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 16));
  const run = (): void => {
    idleScheduled = soonScheduled = false;
    const batch = [...pending];
    pending.clear();
    batch.forEach((message) => message.isConnected && handle(message));
  };
  const schedule = (message: HTMLElement): void => {
    pending.add(message);
    if (isFinished(message)) {
      if (!soonScheduled) {
        soonScheduled = true;
        setTimeout(run, 0);
      }
    } else if (!idleScheduled) {
      idleScheduled = true;
      idle(run, { timeout: 40 });
    }
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      const message = messageOf(record.target);
      if (message) schedule(message);
      else if (record.addedNodes.length) {
        // A chat opened or navigated to: all its messages at once.
        for (const node of record.addedNodes) {
          if (!(node instanceof HTMLElement)) continue;
          const messages = node.matches('[id^="message-"]') ? [node] : node.querySelectorAll<HTMLElement>('[id^="message-"]');
          messages.forEach((m) => messageOf(m) && schedule(m));
        }
      }
    }
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  signal.addEventListener('abort', () => observer.disconnect());
  document.querySelectorAll<HTMLElement>('[id^="message-"]').forEach((m) => messageOf(m) && schedule(m));
  return schedule;
}
