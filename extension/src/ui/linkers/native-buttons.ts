import { nativeButtonTarget, nativeInlineButtons } from '../../host/native.js';
import { attach } from '../attachments.js';
import { buttonsFor, unnamedMark } from '../buttons.js';
import { type Pass, PER_STEP } from './pass.js';

/** Open WebUI's buttons we stand in for, with the numbers we put after them. */
const replaced = new WeakMap<Element, { indices: string; nodes: HTMLElement[] }>();

/** Open WebUI's own inline citation buttons (once sources are on the message) become ours. */
export function* replaceNativeButtons(
  { message, runs, view: { citations, byIndex } }: Pass,
  root: Element,
): Generator<void> {
  // Open WebUI draws one button "+1 more" for a run, and nothing for one none of whose numbers it has.
  const groups = runs.filter((group) => group.indices.length > 0);
  if (groups.length === 0) return; // no marker Open WebUI draws a button for
  // Open WebUI draws one button per group of markers, in reading order, named after the source
  // at the position the group's first number gives in its own list. Once it has drawn them all,
  // the k-th button stands for the k-th group, whatever its name (Open WebUI's own copy of a
  // source can merge or reorder its list). Before that (its sources still arriving), the name
  // finds the group, and a button placed then is placed again once all are drawn.
  const natives = nativeInlineButtons(root).filter((button) => replaced.has(button) || !button.closest('.owc-hidden'));
  const allDrawn = natives.length === groups.length;
  let searchFrom = 0;
  for (const [k, button] of natives.entries()) {
    if (k > 0 && k % PER_STEP === 0) yield; // those already replaced too: a pass again reads them all
    const { candidates, more } = nativeButtonTarget(button, citations);
    const hasButtonSize = (group: { written: number[] } | undefined) => group?.written.length === more + 1;
    const matchesName = (group: { written: number[] }) =>
      hasButtonSize(group) && candidates.some((c) => c.index === group.written[0]);
    const groupIndex = allDrawn
      ? hasButtonSize(groups[k])
        ? k
        : -1
      : groups.findIndex((group, i) => i >= searchFrom && matchesName(group));
    if (groupIndex >= 0) searchFrom = groupIndex + 1;
    const indices = groupIndex >= 0 ? groups[groupIndex]!.indices : null;
    const previous = replaced.get(button);
    if (!indices || previous?.indices === indices.join() || (previous && !allDrawn)) continue;
    previous?.nodes.forEach((node) => node.remove());
    const replacement = [...buttonsFor(indices, byIndex), ...groups[groupIndex]!.unnamed.map(unnamedMark)];
    button.classList.add('owc-hidden');
    button.after(...replacement);
    replaced.set(button, { indices: indices.join(), nodes: replacement });
    attach(message, button, replacement);
  }
}
