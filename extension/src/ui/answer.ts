/**
 * Where an answer's rendered markdown is, read by behaviour rather than version: from 0.11 on,
 * `#response-content-container` holds `.markdown-prose` blocks (one per output item); up to
 * 0.10 the container sits inside the message's one `.markdown-prose` and holds the markdown
 * directly, beside Open WebUI's floating buttons and source strip.
 */

/** Every message Open WebUI draws, the user's and the answers: `#message-<id>`. */
export const MESSAGES = '[id^="message-"]';
const MESSAGE_ID = /^message-(.+)$/;

/** The message id of a message element (`message-<id>`). */
export function messageId(message: Element): string | null {
  return MESSAGE_ID.exec(message.id)?.[1] ?? null;
}

export function answerContainer(message: Element): Element | null {
  return message.querySelector('#response-content-container') ?? message.querySelector('.chat-assistant');
}

export function proseBlocks(container: Element): Element[] {
  const inner = container.querySelectorAll('.markdown-prose');
  if (inner.length) return [...inner];
  return container.closest('.markdown-prose') ? [container] : [];
}
