/** The "Find sources in this response" button on a finished answer that shows no source: drawn
 * with the answer, in the first part; what it opens is find-sources.ts, a part loaded on first use. */

import { el } from './dom.js';
import { t } from './i18n.js';

/** One answer's element of a kind: `.owc-find-sources`, `.owc-find-panel`. */
export const selector = (name: string, messageId: string) => `.${name}[data-owc-message-id="${CSS.escape(messageId)}"]`;

/** The button on an answer without sources; removed once it has some (the panel stays, with its JSON). */
export function noteFindable(container: Element, messageId: string, findable: boolean): void {
  const existing = container.querySelector(selector('owc-find-sources', messageId));
  if (!findable) existing?.remove();
  else if (!existing) {
    const attributes = { type: 'button', class: 'owc-find-sources', 'data-owc-message-id': messageId };
    container.append(el('button', { ...attributes, 'aria-expanded': 'false' }, t('findSources')));
  }
}
