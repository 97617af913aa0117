/**
 * One console warning per finished answer whose sources were not all shown: they arrived but
 * could not be read (bad JSON, a number for a list, only nulls), or there were more than the
 * core reads (limits.ts). One per answer however many chunks carried them; none while it
 * streams; none for an answer without sources. Sources found by the reader of last resort, or in
 * a list in the answer's text, get one line saying how many and where (`choices[0].sources`, a list
 * after the answer), so that the backend's author knows what to ask us for.
 */

import { DECLARED_FORMAT } from '../core/index.js';
import { noteOnce, warnOnce } from '../guard.js';
import type { Hub, MessageState } from './hub.js';

export function warnAboutSources(hub: Hub): (state: MessageState) => void {
  return (state) => {
    if (!state.done) return;
    const { format, unreadable, omitted, field, citations } = hub.citations(state.messageId);
    const message = state.messageId;
    if (field && format === DECLARED_FORMAT)
      noteOnce(`declared:${field}`, `sources of message ${message} read from ${field}, as declared.`);
    else if (field)
      noteOnce(
        `generic:${field}`,
        `${citations.length} sources of message ${message} read from \`${field}\`, where no known format has them: ` +
          "please ask for this backend's format.",
      );
    if (unreadable) {
      warnOnce(
        `sources:${message}`,
        `the ${unreadable} sources of message ${message} could not be read; the answer is shown without them.`,
      );
    } else if (omitted) {
      warnOnce(
        `sources:${message}`,
        `${omitted} ${format} sources of message ${message} beyond the first that are shown were left out.`,
      );
    }
  };
}

/** Warns about each answer as it changes, but about one known only from the stored chat when its
 * sources are first read (drawn): opening a chat parses none of them. `wrap` guards each call. */
export function watchSources(
  hub: Hub,
  wrap: (warn: (state: MessageState) => void) => (state: MessageState) => void,
): void {
  const warn = wrap(warnAboutSources(hub));
  hub.subscribe((state) => {
    if (state.live) warn(state);
  });
  hub.onRead(warn);
}
