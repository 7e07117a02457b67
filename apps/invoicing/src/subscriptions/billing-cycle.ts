// Billing-cycle math: pure and clock-free. Owns where every period of a subscription starts
// and ends, the trial end, which periods fell due between two instants, and proration.
//
// Period n always starts at `anchor + n x (interval_count x interval)` computed from the
// anchor, never by adding to period n-1: adding one month to Feb 28 (itself a clamped
// Jan 31) would give Mar 28 and the anchor day would be lost for good. Month and year steps
// work on the local calendar date in the account's IANA time zone and keep the anchor's
// local time of day; the day of month is min(anchor day, days in the target month)
// (Jan 31 -> Feb 28/29 -> Mar 31 -> Apr 30).
//
// Time zones come from the runtime's Intl (ICU with its bundled tz database, the same source
// luxon and date-fns-tz read): converting a local wall time to an instant is the only thing
// needed, ~30 lines below, so no dependency is added to a package.json shared by three
// workstreams. Wall times in a DST gap move forward by the gap and ambiguous ones take the
// earlier instant (Temporal's "compatible" disambiguation, also luxon's behaviour).

import { divideHalfEven } from '@paygrid/platform';

export const INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type Interval = (typeof INTERVALS)[number];

export interface Cycle {
  interval: Interval;
  /** Intervals per period, >= 1. */
  intervalCount: number;
  /** Period 0 starts here. */
  anchor: Date;
  /** IANA zone; 'UTC' by default. */
  timeZone?: string;
}

export interface Period {
  /** 0 for the period that starts at the anchor; negative before it. */
  index: number;
  start: Date;
  end: Date;
}

const DAY_MS = 86_400_000;

interface LocalParts {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * One Intl.DateTimeFormat per use and time zone: building one costs about 0.3 ms, and the
 * billing engine formats several dates per renewal (bench/README.md finding 41). A zone is
 * stored only once Intl accepted it, but its spelling is not canonical ("europe/paris" works
 * too), so the cache is bounded.
 */
export function zoneFormatter(
  use: string,
  timeZone: string,
  make: (timeZone: string) => Intl.DateTimeFormat,
): Intl.DateTimeFormat {
  const key = `${use}:${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    f = make(timeZone);
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(key, f);
  }
  return f;
}

const formatter = (timeZone: string) =>
  zoneFormatter(
    'parts',
    timeZone,
    (zone) =>
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        era: 'short',
      }),
  );

/** True when `timeZone` is an IANA zone the runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

function localParts(instant: number, timeZone: string): LocalParts {
  const ms = ((instant % 1000) + 1000) % 1000;
  if (timeZone === 'UTC') {
    const d = new Date(instant);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      ms,
    };
  }
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant))) parts[p.type] = p.value;
  const year = Number(parts.year);
  return {
    year: parts.era === 'BC' || parts.era === 'B' ? 1 - year : year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    ms,
  };
}

/** Wall-clock milliseconds of local parts, as if they were UTC. */
function wallMs(p: LocalParts): number {
  const d = new Date(0);
  d.setUTCFullYear(p.year, p.month - 1, p.day);
  d.setUTCHours(p.hour, p.minute, p.second, p.ms);
  return d.getTime();
}

/** The zone's offset from UTC at `instant`, in ms (local = utc + offset). */
function offsetAt(instant: number, timeZone: string): number {
  if (timeZone === 'UTC') return 0;
  return wallMs(localParts(instant, timeZone)) - instant;
}

/** The instant a local wall time denotes in `timeZone` (gap: forward; overlap: earlier). */
function instantOf(p: LocalParts, timeZone: string): number {
  const wall = wallMs(p);
  if (timeZone === 'UTC') return wall;
  // Offsets a day either side cover every real transition (none is closer than that).
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => offsetAt(instant, timeZone) === wall - instant);
  if (candidates.length) return Math.min(...candidates);
  // In a gap: read the wall time with the offset in force before it, which lands after it.
  return wall - before;
}

function daysInMonth(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

/** Local parts `months` calendar months after `p`, the day clamped to the target month. */
function plusMonths(p: LocalParts, months: number): LocalParts {
  const total = p.year * 12 + (p.month - 1) + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12 + 1;
  return { ...p, year, month, day: Math.min(p.day, daysInMonth(year, month)) };
}

function plusDays(p: LocalParts, days: number): LocalParts {
  const d = new Date(0);
  d.setUTCFullYear(p.year, p.month - 1, p.day + days);
  return { ...p, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function zoneOf(cycle: Cycle): string {
  return cycle.timeZone ?? 'UTC';
}

function assertCycle(cycle: Cycle): void {
  if (!Number.isInteger(cycle.intervalCount) || cycle.intervalCount < 1) {
    throw new RangeError(`interval_count must be a positive integer, got ${cycle.intervalCount}`);
  }
  if (Number.isNaN(cycle.anchor.getTime())) throw new RangeError('anchor is not a valid date');
}

/** Local parts of the start of period `n`, computed from the anchor. */
function startParts(cycle: Cycle, n: number): LocalParts {
  const anchor = localParts(cycle.anchor.getTime(), zoneOf(cycle));
  const steps = n * cycle.intervalCount;
  switch (cycle.interval) {
    case 'day':
      return plusDays(anchor, steps);
    case 'week':
      return plusDays(anchor, steps * 7);
    case 'month':
      return plusMonths(anchor, steps);
    case 'year':
      return plusMonths(anchor, steps * 12);
  }
}

/** Start of period `n` (period 0 starts at the anchor). */
export function periodStart(cycle: Cycle, n: number): Date {
  assertCycle(cycle);
  if (!Number.isSafeInteger(n)) throw new RangeError(`period index must be an integer, got ${n}`);
  return new Date(instantOf(startParts(cycle, n), zoneOf(cycle)));
}

/** Period `n`: [start(n), start(n + 1)). */
export function periodAt(cycle: Cycle, n: number): Period {
  return { index: n, start: periodStart(cycle, n), end: periodStart(cycle, n + 1) };
}

/** Nominal length of one period in ms, only to guess an index before exact correction. */
function approxPeriodMs(cycle: Cycle): number {
  const unit = { day: DAY_MS, week: 7 * DAY_MS, month: 30.436875 * DAY_MS, year: 365.2425 * DAY_MS };
  return unit[cycle.interval] * cycle.intervalCount;
}

/** The period that contains `t` (start <= t < end). */
export function periodContaining(cycle: Cycle, t: Date): Period {
  assertCycle(cycle);
  const at = t.getTime();
  let n = Math.floor((at - cycle.anchor.getTime()) / approxPeriodMs(cycle));
  // The guess is off by at most one or two periods (month lengths, DST); walk to the exact one.
  while (periodStart(cycle, n).getTime() > at) n--;
  while (periodStart(cycle, n + 1).getTime() <= at) n++;
  return periodAt(cycle, n);
}

/**
 * The periods that start in (from, to], in order: what a billing engine that last ran at
 * `from` must bill to catch up at `to`. `limit` bounds the answer (a daily cycle after years
 * of downtime); the caller continues from the last one returned.
 */
export function periodsDueBetween(cycle: Cycle, from: Date, to: Date, limit = 10_000): Period[] {
  if (to.getTime() <= from.getTime()) return [];
  const first = periodContaining(cycle, from).index + 1;
  const last = periodContaining(cycle, to).index;
  const periods: Period[] = [];
  for (let n = first; n <= last && periods.length < limit; n++) periods.push(periodAt(cycle, n));
  return periods;
}

/** `days` local calendar days after `start`, keeping the local time of day (trial ends). */
export function addDays(start: Date, days: number, timeZone = 'UTC'): Date {
  return new Date(instantOf(plusDays(localParts(start.getTime(), timeZone), days), timeZone));
}

/** End of a trial that starts at `start`: an explicit end wins, else `trialDays` local days. */
export function trialEnd(
  start: Date,
  options: { trialEnd?: Date; trialDays?: number; timeZone?: string },
): Date | null {
  if (options.trialEnd) return options.trialEnd;
  if (options.trialDays) return addDays(start, options.trialDays, options.timeZone);
  return null;
}

// ---------------------------------------------------------------------------------------
// Proration.
//
// A change at instant `at` inside [start, end) splits the period by seconds:
//   credit = amount paid for the period x unused seconds / period seconds
//   charge = new amount for the period   x unused seconds / period seconds
// each rounded half-even once, in bigint. Seconds (floored instants), not days: a period of a
// month has 28-31 days and a change at noon must not bill the whole day. Because unused <=
// total, the credit never exceeds what was paid for the period, whatever the rounding.

export interface Proration {
  /** Seconds from `at` to the period end. */
  unusedSeconds: bigint;
  periodSeconds: bigint;
  /** Unused time on the old amount (>= 0, <= oldAmount): given back. */
  credit: bigint;
  /** Remaining time on the new amount (>= 0): billed. */
  charge: bigint;
  /** charge - credit: what the change bills (negative: owed to the customer). */
  net: bigint;
}

const seconds = (d: Date) => BigInt(Math.floor(d.getTime() / 1000));

/** The fraction `amount x unused / period` of `period` from `at`, rounded half-even. */
export function prorateAmount(amount: bigint, period: { start: Date; end: Date }, at: Date): bigint {
  const total = seconds(period.end) - seconds(period.start);
  if (total <= 0n) throw new RangeError('empty period');
  const unused = clampSeconds(seconds(period.end) - seconds(at), total);
  return divideHalfEven(amount * unused, total);
}

function clampSeconds(value: bigint, max: bigint): bigint {
  return value < 0n ? 0n : value > max ? max : value;
}

export function prorate(input: {
  oldAmount: bigint;
  newAmount: bigint;
  period: { start: Date; end: Date };
  at: Date;
}): Proration {
  if (input.oldAmount < 0n || input.newAmount < 0n) throw new RangeError('amounts must be >= 0');
  const periodSeconds = seconds(input.period.end) - seconds(input.period.start);
  if (periodSeconds <= 0n) throw new RangeError('empty period');
  const unusedSeconds = clampSeconds(seconds(input.period.end) - seconds(input.at), periodSeconds);
  const credit = divideHalfEven(input.oldAmount * unusedSeconds, periodSeconds);
  const charge = divideHalfEven(input.newAmount * unusedSeconds, periodSeconds);
  return { unusedSeconds, periodSeconds, credit, charge, net: charge - credit };
}
