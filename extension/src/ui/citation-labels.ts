/** Each citation button of an answer named for a screen reader, by its place among the answer's
 * citations; drawn with the answer (message.ts), in the first part. */

import type { Citation } from '../core/index.js';
import { t } from './i18n.js';

export const BUTTONS = '.owc-cite';

/** Every citation button of a message, in reading order. */
export const citationButtons = (message: ParentNode): HTMLButtonElement[] => [
  ...message.querySelectorAll<HTMLButtonElement>(BUTTONS),
];

// A label is a few times cheaper than a link made (linkers/pass.ts PER_STEP).
const LABELS_PER_STEP = 64;

/** Names each button for a screen reader: "citation 3 of 7: source 2, <title>"; in steps (a crafted
 * answer has thousands of buttons). */
export function* labelCitations(message: ParentNode, byIndex: ReadonlyMap<number, Citation>): Generator<void> {
  const buttons = citationButtons(message);
  for (const [k, button] of buttons.entries()) {
    if (k > 0 && k % LABELS_PER_STEP === 0) yield;
    const citation = byIndex.get(Number(button.dataset.owcIndex));
    if (!citation) continue;
    const label = t('citation', { k: k + 1, total: buttons.length, n: citation.index, title: citation.title });
    if (button.getAttribute('aria-label') !== label) button.setAttribute('aria-label', label);
  }
}
