/** Runs `callback` when the browser is idle, or after `timeoutMs` at the latest (a zero timeout
 * where there is no requestIdleCallback). */
export const whenIdle = (callback: () => void, timeoutMs: number): unknown =>
  window.requestIdleCallback ? window.requestIdleCallback(callback, { timeout: timeoutMs }) : setTimeout(callback, 0);
