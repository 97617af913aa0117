import { answerTags } from '../../core/index.js';
import { attach, place } from '../attachments.js';
import { citeButton, citing, citingRef } from '../buttons.js';
import { hideRange, textNodes } from './dom-text.js';
import { type Pass, PER_STEP } from './pass.js';

/** Brave's `<citation>{…}</citation>` tags become numbered buttons; its other tags are hidden.
 * Open WebUI shows them as text, so they are found in the block's joined text. */
export function* linkTags({ message, view }: Pass, root: Element): Generator<void> {
  let read = 0;
  for (const block of root.querySelectorAll('p, li, h1, h2, h3, h4, h5, h6, td')) {
    if (++read % PER_STEP === 0) yield;
    if (!block.textContent?.includes('</')) continue;
    const nodes = textNodes(block);
    const text = nodes.map(({ node }) => node.data).join('');
    for (const tag of answerTags(text).reverse()) {
      // from the end: earlier offsets stay valid
      const at = hideRange(message, nodes, tag.start, tag.end);
      const number = tag.citedNumber;
      if (!at || number === null) continue;
      const citation = citing(view, number);
      if (!citation) continue;
      const button = citeButton(citation);
      at.after(button);
      place(attach(message, at, [button]), [button], citingRef(number));
    }
    yield;
  }
}
