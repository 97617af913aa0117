/**
 * Work in steps: a pass over a whole answer written as a generator that stops once it has spent
 * a budget of work (characters read, items handled) and goes on when resumed, so that a caller
 * cutting its work into slices (the UI's passes, ui/observe.ts) never reads a long text in one.
 * The whole call is the same steps run to their end with no budget: one implementation for both.
 * A step's work is its budget and one unit more, but for a regex's own search between two matches
 * (linear in what it reads: the core's regexes do not backtrack).
 */

/** A pass in steps, returning its result when done. */
export type Steps<T> = Generator<void, T, undefined>;

/** The work of the current step, against its budget. */
export interface Budget {
  /** Counts `units` of work; true when the step has spent its budget (the caller then yields). */
  spend(units: number): boolean;
}

/** The budget of a whole run: it never ends a step. */
export const WHOLE: Budget = { spend: () => false };

/** A budget of `units` a step (at least one); none, or not a positive number: the whole run. */
export function stepBudget(units?: number): Budget {
  if (units === undefined || !(units > 0) || units === Number.POSITIVE_INFINITY) return WHOLE;
  let left = units;
  return {
    spend(spent) {
      left -= spent;
      if (left > 0) return false;
      left = units;
      return true;
    },
  };
}

/** Steps already done: `value`, for a reading not made in steps where steps are asked for. */
export function* done<T>(value: T): Steps<T> {
  yield* [];
  return value;
}

/** Runs the steps to their end: the whole call. */
export function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}
