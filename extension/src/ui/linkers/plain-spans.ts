import { attach, place } from '../attachments.js';
import { buttonsFor } from '../buttons.js';
import { screenText } from './dom-text.js';
import type { Pass } from './pass.js';

/** Text a producer attached a citation to by offsets, with no link or marker in it (Gemini's
 * grounding segments through LiteLLM or OpenRouter): its button goes at the end of that text. */
export function* linkPlainSpans(
  { message, content, view: { contentSpans, byIndex } }: Pass,
  root: Element,
): Generator<void> {
  const endOf = screenText(root);
  for (const span of contentSpans) {
    if (span.kind !== 'link' || message.querySelector(`.owc-cite[data-owc-span="${span.start}"]`)) continue;
    const at = endOf(content.slice(span.start, span.end));
    if (!at) continue;
    const buttons = buttonsFor(span.indices, byIndex);
    buttons.forEach((button) => button.setAttribute('data-owc-span', String(span.start)));
    at.rest.before(...buttons);
    place(
      attach(message, at.holder, [...buttons, at.rest]),
      buttons,
      (view) => view.contentSpans.find((s) => s.kind === 'link' && s.start === span.start)?.indices ?? [],
    );
    yield;
  }
}
