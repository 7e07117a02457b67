// Retry schedules (docs/api.md §7): the delay before each attempt, the first immediate.

const S = 1000;
const M = 60 * S;
const H = 60 * M;

export const LIVE_SCHEDULE = [0, 5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H];
export const SANDBOX_SCHEDULE = [0, 5 * S, 1 * M, 5 * M, 30 * M];

/**
 * When the attempt after `attemptsMade` failed ones is due, or undefined when the schedule
 * is exhausted. ±10% jitter so retries of many deliveries spread out.
 */
export function nextAttemptAt(
  livemode: boolean,
  attemptsMade: number,
  now: Date,
  random: () => number = Math.random,
): Date | undefined {
  const schedule = livemode ? LIVE_SCHEDULE : SANDBOX_SCHEDULE;
  if (attemptsMade >= schedule.length) return undefined;
  const delay = schedule[attemptsMade];
  const jitter = delay * 0.1 * (random() * 2 - 1);
  return new Date(now.getTime() + Math.round(delay + jitter));
}
