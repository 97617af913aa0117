/**
 * How Open WebUI draws its messages: each `#message-<id>`, an answer's `.chat-assistant`, and
 * where an answer's rendered markdown is, read by behaviour rather than version: from 0.11 on,
 * `#response-content-container` holds `.markdown-prose` blocks (one per output item); up to
 * 0.10 the container sits inside the message's one `.markdown-prose` and holds the markdown
 * directly, beside Open WebUI's floating buttons and source strip.
 */

import { isId } from '../ids.js';

/** Every message Open WebUI draws, the user's and the answers: `#message-<id>`. */
export const MESSAGES = '[id^="message-"]';
const MESSAGE_ID = /^message-(.+)$/;

/** The message id of a message element (`message-<id>`). */
export function messageId(message: Element): string | null {
  return MESSAGE_ID.exec(message.id)?.[1] ?? null;
}

/** The element Open WebUI draws a message in, when drawn. */
export const messageElement = (id: string): HTMLElement | null => document.getElementById(`message-${id}`);

/** The ids of the messages Open WebUI draws, in order: the branch on screen, its last message
 * last (older ones of a long chat are drawn only once scrolled to). Ids are a chat's data: only
 * those shaped as ids. A message being edited also draws `message-edit-<id>`, no message. */
export function drawnMessageIds(): string[] {
  return [...document.querySelectorAll(MESSAGES)].map(messageId).filter(isId);
}

/** Whether a message element is an answer (the user's messages have no `.chat-assistant`). */
export const isAnswer = (message: Element): boolean => message.querySelector('.chat-assistant') !== null;

/** Open WebUI's copy button, on every answer, 0.6 to 0.12. */
export const COPY_BUTTON = '.copy-response-button';

/** How 0.12 draws a footnote's mark, `[^n]`. */
export const FOOTNOTE_REF = 'sup.footnote-ref';

export function answerContainer(message: Element): Element | null {
  return message.querySelector('#response-content-container') ?? message.querySelector('.chat-assistant');
}

export function proseBlocks(container: Element): Element[] {
  const inner = container.querySelectorAll('.markdown-prose');
  if (inner.length) return [...inner];
  return container.closest('.markdown-prose') ? [container] : [];
}
