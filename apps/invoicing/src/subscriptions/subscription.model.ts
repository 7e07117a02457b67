// The stored subscription, its JSON form, and the pure rules the service and the engine share:
// the cycle of a subscription, what it bills for a period, and when it next needs the engine.

import { isoOrNull, minorToJson, toMinor, iso } from '@paygrid/platform';
import type { LineInput } from '../invoices/totals';
import { periodStart, prorateAmount, zoneFormatter, type Cycle, type Interval } from './billing-cycle';
import type { SubscriptionStatus } from './subscription-states';
import type { Subscription } from '@paygrid/contracts';

export interface SubscriptionItem {
  description: string;
  unit_amount: number;
  quantity: number;
}

export type DunningEndState = 'unpaid' | 'canceled';
export type CollectionMethod = 'send_invoice' | 'charge_automatically';

export interface SubscriptionRow {
  id: string;
  account_id: string;
  livemode: boolean;
  customer_id: string;
  test_clock: string | null;
  status: SubscriptionStatus;
  currency: string;
  interval: Interval;
  interval_count: number;
  items: SubscriptionItem[];
  time_zone: string;
  billing_cycle_anchor: Date;
  start_date: Date;
  /** Billing starts here (start, or trial end): a period that began before is billed pro rata. */
  bill_from: Date;
  trial_start: Date | null;
  trial_end: Date | null;
  trial_will_end_sent: boolean;
  collection_method: CollectionMethod;
  days_until_due: number | null;
  dunning_end_state: DunningEndState;
  /** The next period (index from the anchor) the engine will bill or record. */
  next_period_index: number;
  current_period_index: number | null;
  current_period_start: Date | null;
  current_period_end: Date | null;
  next_action_at: Date | null;
  latest_invoice: string | null;
  /** Credit owed to the customer (downgrades), deducted from the next invoices. */
  pending_credit: string;
  cancel_at_period_end: boolean;
  canceled_at: Date | null;
  ended_at: Date | null;
  paused_at: Date | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

/** Dunning: after the first failed attempt, retries this many days after that first attempt. */
export const RETRY_DAYS = [1, 3, 5, 7] as const;
/** trial_will_end is sent this long before the trial ends. */
export const TRIAL_WILL_END_MS = 3 * 86_400_000;
/** An incomplete subscription whose first invoice is still unpaid expires after this. */
export const INCOMPLETE_EXPIRY_MS = 23 * 3_600_000;
const DAY_MS = 86_400_000;

export const cycleOf = (
  s: Pick<SubscriptionRow, 'interval' | 'interval_count' | 'billing_cycle_anchor' | 'time_zone'>,
): Cycle => ({
  interval: s.interval,
  intervalCount: s.interval_count,
  anchor: new Date(s.billing_cycle_anchor),
  timeZone: s.time_zone,
});

export const lineTotal = (item: SubscriptionItem) => BigInt(item.unit_amount) * BigInt(item.quantity);
export const itemsTotal = (items: readonly SubscriptionItem[]) =>
  items.reduce((sum, i) => sum + lineTotal(i), 0n);

/** "Pro plan" for one, "Pro plan × 3" for more. */
export const itemInWords = (item: Pick<SubscriptionItem, 'description' | 'quantity'>) =>
  item.quantity === 1 ? item.description : `${item.description} × ${item.quantity}`;

/**
 * A period as people write it, in the subscription's time zone: "24 Nov – 15 Dec 2026",
 * "1 – 20 Dec 2026", "24 Dec 2026 – 24 Jan 2027" (Intl's range format, en-GB).
 */
export function periodInWords(start: Date, end: Date, timeZone = 'UTC'): string {
  // The words name two calendar days, and Intl's range format costs about 0.1 ms: in UTC,
  // where a day is plain arithmetic, the words of each pair of days are kept (bounded), so
  // the renewals of one day share them (bench/README.md finding 43).
  if (timeZone !== 'UTC') return periodInWordsNow(start, end, timeZone);
  const key = `${Math.floor(start.getTime() / DAY_MS)}:${Math.floor(end.getTime() / DAY_MS)}`;
  let words = utcPeriodWords.get(key);
  if (words === undefined) {
    words = periodInWordsNow(start, end, timeZone);
    if (utcPeriodWords.size >= 1000) utcPeriodWords.clear();
    utcPeriodWords.set(key, words);
  }
  return words;
}

const utcPeriodWords = new Map<string, string>();

function periodInWordsNow(start: Date, end: Date, timeZone: string): string {
  const format = zoneFormatter(
    'period',
    timeZone,
    (zone) =>
      new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: zone }),
  );
  // Intl puts thin spaces around the dash; plain spaces read the same in mail, PDFs and tests.
  return format.formatRange(start, end).replace(/[\u2009\u202f\u00a0]/g, ' ');
}

/** The invoice's description: "Pro plan × 3, 24 Nov – 15 Dec 2026" (items joined with " + "). */
export function invoiceDescriptionInWords(
  items: readonly SubscriptionItem[],
  from: Date,
  end: Date,
  timeZone = 'UTC',
): string {
  return `${items.map(itemInWords).join(' + ')}, ${periodInWords(from, end, timeZone)}`;
}

/**
 * The lines of period [start, end) billed from `from`: full items when `from` <= start,
 * else each item pro rata by seconds (rounded half-even once per item). Each line names the
 * item and the period in words, in the subscription's time zone.
 */
export function periodLines(
  items: readonly SubscriptionItem[],
  period: { start: Date; end: Date },
  from: Date,
  timeZone = 'UTC',
): LineInput[] {
  if (from.getTime() <= period.start.getTime()) {
    return items.map((i) => ({
      description: `${itemInWords(i)}, ${periodInWords(period.start, period.end, timeZone)}`,
      quantity: i.quantity,
      unit_amount: i.unit_amount,
    }));
  }
  return items.map((i) => ({
    description: `${itemInWords(i)}, ${periodInWords(from, period.end, timeZone)} (pro rata)`,
    quantity: 1,
    unit_amount: minorToJson(prorateAmount(lineTotal(i), period, from)),
  }));
}

export interface ProrationLine {
  description: string;
  /** Negative: unused time given back. */
  amount: bigint;
  period_start: Date;
  period_end: Date;
}

/**
 * A price or quantity change at `at` inside [start, end): unused time on each old item
 * (negative) and the remaining time on each new item (positive). Items unchanged at the same
 * position cancel out and are left out.
 */
export function prorationLines(
  oldItems: readonly SubscriptionItem[],
  newItems: readonly SubscriptionItem[],
  period: { start: Date; end: Date },
  at: Date,
  timeZone = 'UTC',
): ProrationLine[] {
  const same = (a?: SubscriptionItem, b?: SubscriptionItem) =>
    !!a &&
    !!b &&
    a.description === b.description &&
    a.unit_amount === b.unit_amount &&
    a.quantity === b.quantity;
  const lines: ProrationLine[] = [];
  oldItems.forEach((item, i) => {
    if (same(item, newItems[i])) return;
    lines.push({
      description: `Unused time on ${itemInWords(item)}, ${periodInWords(at, period.end, timeZone)}`,
      amount: -prorateAmount(lineTotal(item), period, at),
      period_start: at,
      period_end: period.end,
    });
  });
  newItems.forEach((item, i) => {
    if (same(oldItems[i], item)) return;
    lines.push({
      description: `Remaining time on ${itemInWords(item)}, ${periodInWords(at, period.end, timeZone)}`,
      amount: prorateAmount(lineTotal(item), period, at),
      period_start: at,
      period_end: period.end,
    });
  });
  return lines.filter((l) => l.amount !== 0n);
}

export interface ComposedInvoice {
  lines: LineInput[];
  subtotal: bigint;
  /** Credit applied as the invoice's amount discount (<= subtotal). */
  discount: bigint;
  total: bigint;
  /** Credit left for later invoices. */
  creditLeft: bigint;
}

/**
 * An invoice from base lines plus pending proration lines and credit. Invoice lines cannot be
 * negative (docs/api.md §1: amounts >= 0), so negative proration lines and earlier credit become an
 * amount discount, at most the subtotal; the rest is carried to the next invoice. The sum
 * billed over time is exactly charges - credits, nothing lost or counted twice.
 */
export function composeInvoice(
  base: readonly LineInput[],
  prorations: readonly ProrationLine[],
  credit: bigint,
): ComposedInvoice {
  const lines: LineInput[] = [...base];
  let totalCredit = credit;
  for (const p of prorations) {
    if (p.amount > 0n)
      lines.push({ description: p.description, quantity: 1, unit_amount: minorToJson(p.amount) });
    else totalCredit += -p.amount;
  }
  const subtotal = lines.reduce(
    (sum, l) => sum + toMinor(l.unit_amount as string | number | bigint) * BigInt(l.quantity),
    0n,
  );
  const discount = totalCredit < subtotal ? totalCredit : subtotal;
  return { lines, subtotal, discount, total: subtotal - discount, creditLeft: totalCredit - discount };
}

export type ActionKind = 'trial_will_end' | 'trial_end' | 'incomplete_expiry' | 'period' | 'retry';

/** The engine's next due actions for `s`, earliest first (retryAt: its earliest dunning retry). */
export function pendingActions(s: SubscriptionRow, retryAt: Date | null): { kind: ActionKind; at: Date }[] {
  const actions: { kind: ActionKind; at: Date }[] = [];
  if (s.status === 'trialing' && s.trial_end) {
    if (!s.trial_will_end_sent) {
      actions.push({
        kind: 'trial_will_end',
        at: new Date(
          Math.max(new Date(s.trial_end).getTime() - TRIAL_WILL_END_MS, new Date(s.start_date).getTime()),
        ),
      });
    }
    actions.push({ kind: 'trial_end', at: new Date(s.trial_end) });
  }
  if (s.status === 'incomplete') {
    actions.push({
      kind: 'incomplete_expiry',
      at: new Date(new Date(s.start_date).getTime() + INCOMPLETE_EXPIRY_MS),
    });
  }
  if (s.status === 'active' || s.status === 'past_due' || s.status === 'paused') {
    actions.push({ kind: 'period', at: billingTime(s, s.next_period_index) });
  }
  if (retryAt && (s.status === 'active' || s.status === 'past_due'))
    actions.push({ kind: 'retry', at: retryAt });
  return actions.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** When period `n` is billed: its start, or bill_from for the period billing starts in. */
export function billingTime(s: SubscriptionRow, n: number): Date {
  const start = periodStart(cycleOf(s), n).getTime();
  return new Date(Math.max(start, new Date(s.bill_from).getTime()));
}

export function retryTime(firstAttemptAt: Date, failedAttempts: number): Date | null {
  const days = RETRY_DAYS[failedAttempts - 1];
  return days === undefined ? null : new Date(new Date(firstAttemptAt).getTime() + days * DAY_MS);
}

export function serializeSubscription(s: SubscriptionRow): Subscription {
  return {
    id: s.id,
    object: 'subscription' as const,
    livemode: s.livemode,
    customer: s.customer_id,
    test_clock: s.test_clock,
    status: s.status,
    currency: s.currency,
    items: s.items.map((i) => ({
      description: i.description,
      unit_amount: i.unit_amount,
      currency: s.currency,
      quantity: i.quantity,
      interval: s.interval,
      interval_count: s.interval_count,
    })),
    interval: s.interval,
    interval_count: s.interval_count,
    time_zone: s.time_zone,
    billing_cycle_anchor: iso(s.billing_cycle_anchor),
    start_date: iso(s.start_date),
    trial_start: isoOrNull(s.trial_start),
    trial_end: isoOrNull(s.trial_end),
    current_period_start: isoOrNull(s.current_period_start),
    current_period_end: isoOrNull(s.current_period_end),
    collection_method: s.collection_method,
    days_until_due: s.days_until_due,
    dunning_end_state: s.dunning_end_state,
    latest_invoice: s.latest_invoice,
    pending_credit: minorToJson(toMinor(s.pending_credit)),
    cancel_at_period_end: s.cancel_at_period_end,
    canceled_at: isoOrNull(s.canceled_at),
    ended_at: isoOrNull(s.ended_at),
    paused_at: isoOrNull(s.paused_at),
    next_action_at: isoOrNull(s.next_action_at),
    metadata: s.metadata,
    created_at: iso(s.created_at),
    updated_at: iso(s.updated_at),
  };
}
