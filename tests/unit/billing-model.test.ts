// The pure rules subscriptions and the engine share: the transition table, what a period
// bills, proration lines, credits applied as a discount and carried, and the next action.

import fc from 'fast-check';
import {
  billingTime,
  composeInvoice,
  pendingActions,
  periodLines,
  periodInWords,
  invoiceDescriptionInWords,
  prorationLines,
  retryTime,
  type SubscriptionRow,
} from '../../apps/invoicing/src/subscriptions/subscription.model';
import {
  canTransition,
  SUBSCRIPTION_STATUSES,
  TERMINAL_STATUSES,
  TRANSITIONS,
} from '../../apps/invoicing/src/subscriptions/subscription-states';

const row = (over: Partial<SubscriptionRow> = {}): SubscriptionRow => ({
  id: 'sub_test00000001',
  account_id: 'acct_x',
  livemode: false,
  customer_id: 'cus_x',
  test_clock: null,
  status: 'active',
  currency: 'EUR',
  interval: 'month',
  interval_count: 1,
  items: [{ description: 'Seat', unit_amount: 1000, quantity: 2 }],
  time_zone: 'UTC',
  billing_cycle_anchor: new Date('2028-01-31T00:00:00Z'),
  start_date: new Date('2028-01-31T00:00:00Z'),
  bill_from: new Date('2028-01-31T00:00:00Z'),
  trial_start: null,
  trial_end: null,
  trial_will_end_sent: false,
  collection_method: 'charge_automatically',
  days_until_due: null,
  dunning_end_state: 'canceled',
  next_period_index: 1,
  current_period_index: 0,
  current_period_start: new Date('2028-01-31T00:00:00Z'),
  current_period_end: new Date('2028-02-29T00:00:00Z'),
  next_action_at: null,
  latest_invoice: null,
  pending_credit: '0',
  cancel_at_period_end: false,
  canceled_at: null,
  ended_at: null,
  paused_at: null,
  metadata: {},
  created_at: new Date('2028-01-31T00:00:00Z'),
  updated_at: new Date('2028-01-31T00:00:00Z'),
  ...over,
});

describe('states', () => {
  it('terminal states go nowhere; every target is a known state; no state moves to itself', () => {
    for (const from of SUBSCRIPTION_STATUSES) {
      for (const to of TRANSITIONS[from]) {
        expect(SUBSCRIPTION_STATUSES).toContain(to);
        expect(to).not.toBe(from);
      }
    }
    for (const t of TERMINAL_STATUSES) expect(TRANSITIONS[t]).toEqual([]);
    expect(canTransition('active', 'paused')).toBe(true);
    expect(canTransition('trialing', 'paused')).toBe(false);
    expect(canTransition('past_due', 'unpaid')).toBe(true);
    expect(canTransition('canceled', 'active')).toBe(false);
  });
});

describe('what a period bills', () => {
  it('bills whole items, or each item pro rata from a later start', () => {
    const period = { start: new Date('2028-01-31T00:00:00Z'), end: new Date('2028-02-29T00:00:00Z') };
    expect(periodLines(row().items, period, period.start)).toEqual([
      { description: 'Seat × 2, 31 Jan – 29 Feb 2028', quantity: 2, unit_amount: 1000 },
    ]);
    // From Feb 14: 15 of 29 days of 2 x 1000 = 1034.48 -> 1034.
    const stub = periodLines(row().items, period, new Date('2028-02-14T00:00:00Z'));
    expect(stub.map((l) => [l.description, l.quantity, l.unit_amount])).toEqual([
      ['Seat × 2, 14 – 29 Feb 2028 (pro rata)', 1, 1034],
    ]);
  });

  it('names the plan and the period in words, in the time zone of the subscription', () => {
    const items = [
      { description: 'Pro plan', unit_amount: 1000, quantity: 3 },
      { description: 'Support', unit_amount: 500, quantity: 1 },
    ];
    const from = new Date('2026-11-24T00:00:00Z');
    const end = new Date('2026-12-15T00:00:00Z');
    expect(invoiceDescriptionInWords(items.slice(0, 1), from, end)).toBe(
      'Pro plan × 3, 24 Nov – 15 Dec 2026',
    );
    expect(invoiceDescriptionInWords(items, from, end)).toBe('Pro plan × 3 + Support, 24 Nov – 15 Dec 2026');
    // 23:30 UTC on 23 Nov is already the 24th in Warsaw; across a year end both years show.
    expect(periodInWords(new Date('2026-11-23T23:30:00Z'), end, 'Europe/Warsaw')).toBe(
      '24 Nov – 15 Dec 2026',
    );
    expect(periodInWords(new Date('2026-12-24T00:00:00Z'), new Date('2027-01-24T00:00:00Z'))).toBe(
      '24 Dec 2026 – 24 Jan 2027',
    );
  });

  it('period n is billed at its start, or at bill_from for the period billing starts in', () => {
    const s = row({ bill_from: new Date('2028-02-14T00:00:00Z') });
    expect(billingTime(s, 0).toISOString()).toBe('2028-02-14T00:00:00.000Z');
    expect(billingTime(s, 1).toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });

  it('credits become a discount of at most the subtotal; the rest is carried; nothing lost', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { maxLength: 5 }),
        fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { maxLength: 6 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        (bases, prorations, credit) => {
          const c = composeInvoice(
            bases.map((b) => ({ description: 'x', quantity: 1, unit_amount: b })),
            prorations.map((a) => ({
              description: 'p',
              amount: BigInt(a),
              period_start: new Date(0),
              period_end: new Date(1),
            })),
            BigInt(credit),
          );
          const charges = BigInt(
            bases.reduce((a, b) => a + b, 0) + prorations.filter((p) => p > 0).reduce((a, b) => a + b, 0),
          );
          const credits = BigInt(credit - prorations.filter((p) => p < 0).reduce((a, b) => a + b, 0));
          expect(c.subtotal).toBe(charges);
          expect(c.discount <= c.subtotal && c.discount >= 0n).toBe(true);
          expect(c.total).toBe(c.subtotal - c.discount);
          expect(c.creditLeft).toBe(credits - c.discount);
          // Billed now minus carried credit is exactly charges minus credits.
          expect(c.total - c.creditLeft).toBe(charges - credits);
          for (const line of c.lines) expect(Number(line.unit_amount)).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it('proration lines leave unchanged items out and credit at most the old item', () => {
    const period = { start: new Date('2028-03-01T00:00:00Z'), end: new Date('2028-04-01T00:00:00Z') };
    const at = new Date('2028-03-11T00:00:00Z');
    const old = [
      { description: 'A', unit_amount: 3100, quantity: 1 },
      { description: 'B', unit_amount: 500, quantity: 1 },
    ];
    const next = [
      { description: 'A', unit_amount: 3100, quantity: 3 },
      { description: 'B', unit_amount: 500, quantity: 1 },
    ];
    expect(prorationLines(old, next, period, at).map((l) => l.amount)).toEqual([-2100n, 6300n]);
  });
});

describe('next action', () => {
  it('trialing: trial_will_end 3 days before, then the trial end', () => {
    const s = row({
      status: 'trialing',
      trial_end: new Date('2028-02-14T00:00:00Z'),
      start_date: new Date('2028-01-31T00:00:00Z'),
    });
    expect(pendingActions(s, null).map((a) => [a.kind, a.at.toISOString()])).toEqual([
      ['trial_will_end', '2028-02-11T00:00:00.000Z'],
      ['trial_end', '2028-02-14T00:00:00.000Z'],
    ]);
  });

  it('active: the next period start and any retry, earliest first; terminal and unpaid: nothing', () => {
    expect(pendingActions(row(), new Date('2028-02-02T00:00:00Z')).map((a) => a.kind)).toEqual([
      'retry',
      'period',
    ]);
    expect(pendingActions(row({ status: 'unpaid' }), new Date('2028-02-02T00:00:00Z'))).toEqual([]);
    expect(pendingActions(row({ status: 'canceled' }), null)).toEqual([]);
  });

  it('retries 1, 3, 5 and 7 days after the first attempt, then none', () => {
    const first = new Date('2028-02-29T00:00:00Z');
    expect([1, 2, 3, 4, 5].map((n) => retryTime(first, n)?.toISOString() ?? null)).toEqual([
      '2028-03-01T00:00:00.000Z',
      '2028-03-03T00:00:00.000Z',
      '2028-03-05T00:00:00.000Z',
      '2028-03-07T00:00:00.000Z',
      null,
    ]);
  });
});
