// When a mandate's cycles fall due. Every charge date is computed from the mandate's anchor
// (the first charge), never by adding an interval to the previous date: adding a month to
// Jan 31 gives Feb 28, and adding another gives Mar 28, drifting three days for good. From
// the anchor, cycle n of a monthly mandate anchored on Jan 31 is the last day of the month
// when the month is shorter (Feb 28/29, Apr 30) and the 31st again whenever the month has one.
// Pure functions: unit- and property-tested.

export type Interval = 'day' | 'week' | 'month' | 'year';

const DAY_MS = 86_400_000;

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** The date of cycle `n` (0 = the anchor itself) of a mandate charging every `count` `interval`s. */
export function cycleDate(anchor: Date, interval: Interval, count: number, n: number): Date {
  if (!Number.isInteger(n) || n < 0) throw new RangeError('cycle must be a non-negative integer');
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError('interval_count must be a positive integer');
  if (interval === 'day' || interval === 'week') {
    return new Date(anchor.getTime() + n * count * (interval === 'day' ? 1 : 7) * DAY_MS);
  }
  const months = n * count * (interval === 'year' ? 12 : 1);
  const total = anchor.getUTCMonth() + months;
  const year = anchor.getUTCFullYear() + Math.floor(total / 12);
  const month = total % 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/**
 * Failure policy of a cycle's charge: attempt 1 at the due date, then retries after these
 * delays (attempt 2 one day later, attempt 3 three days after that). When the last attempt
 * fails the mandate becomes `failed` (mandate.failed) and is never charged again.
 */
export const RETRY_DELAYS_MS: readonly number[] = [1 * DAY_MS, 3 * DAY_MS];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** When the next attempt of a cycle whose attempt `attempt` failed runs; undefined after the last. */
export function retryAt(failedAt: Date, attempt: number): Date | undefined {
  const delay = RETRY_DELAYS_MS[attempt - 1];
  return delay === undefined ? undefined : new Date(failedAt.getTime() + delay);
}
