/** Runs `callback` when the browser is idle, or after `timeoutMs` at the latest (a zero timeout
 * where there is no requestIdleCallback). */
export const whenIdle = (callback: () => void, timeoutMs: number): unknown =>
  window.requestIdleCallback ? window.requestIdleCallback(callback, { timeout: timeoutMs }) : setTimeout(callback, 0);

// Longest slice of work in one task: half a frame, the other half the browser's.
export const SLICE_MS = 8;

interface Scheduler {
  postTask(callback: () => void, options: { priority: 'user-blocking' | 'user-visible' | 'background' }): unknown;
}

/** A task as soon as the browser has painted and handled input (`scheduler.postTask`, else a
 * zero timeout; not requestAnimationFrame, which a hidden or background page never runs). */
export const soon = (callback: () => void): unknown => {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  return scheduler?.postTask ? scheduler.postTask(callback, { priority: 'user-visible' }) : setTimeout(callback, 0);
};

/** Runs `steps` to their end in slices of at most SLICE_MS, each in a task of its own (`soon`),
 * the first too (not after the work that called it, a JSON parse say): however many steps, no
 * task of ours holds the page for a frame. */
export function inSlices(steps: Iterator<unknown>): void {
  soon(() => {
    const until = performance.now() + SLICE_MS;
    do {
      if (steps.next().done) return;
    } while (performance.now() <= until);
    inSlices(steps);
  });
}
