/**
 * One console warning per finished answer whose sources were not all shown: they arrived but
 * could not be read (bad JSON, a number for a list, only nulls), or there were more than the
 * core reads (limits.ts). One per answer however many chunks carried them; none while it
 * streams; none for an answer without sources.
 */

import { warnOnce } from '../guard.js';
import type { Hub, MessageState } from './hub.js';

export function warnAboutSources(hub: Hub): (state: MessageState) => void {
  return (state) => {
    if (!state.done) return;
    const { format, unreadable, omitted } = hub.citations(state.messageId);
    const message = state.messageId;
    if (unreadable) {
      warnOnce(`sources:${message}`, `the ${unreadable} sources of message ${message} could not be read; the answer is shown without them.`);
    } else if (omitted) {
      warnOnce(`sources:${message}`, `${omitted} ${format} sources of message ${message} beyond the first that are shown were left out.`);
    }
  };
}
