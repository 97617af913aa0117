/**
 * How long to wait before trying again after a transient failure (the network, a 5xx): doubling
 * from `firstMs` with each failure, at most `longestMs`, and a random point in the upper half of
 * that, so that many tabs failing together do not all try again at the same moment.
 */
export function backoffMs(failures: number, firstMs: number, longestMs: number, random: () => number): number {
  const doublings = Math.min(Math.max(failures - 1, 0), 30);
  const ceiling = Math.min(longestMs, firstMs * 2 ** doublings);
  return ceiling / 2 + (random() * ceiling) / 2;
}
