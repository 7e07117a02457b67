// Billing-cycle math and proration: examples written out by hand, then properties over
// random anchors, cycles and zones (fast-check).

import fc from 'fast-check';
import {
  addDays,
  periodAt,
  periodContaining,
  periodStart,
  periodsDueBetween,
  prorate,
  prorateAmount,
  type Cycle,
  type Interval,
} from '../../apps/invoicing/src/subscriptions/billing-cycle';

const iso = (d: Date) => d.toISOString();
const monthly = (anchor: string, timeZone?: string): Cycle => ({
  interval: 'month',
  intervalCount: 1,
  anchor: new Date(anchor),
  timeZone,
});

describe('periods from the anchor', () => {
  it('clamps to the end of the month and comes back to the anchor day (Jan 31, leap year)', () => {
    const cycle = monthly('2028-01-31T00:00:00Z');
    expect([0, 1, 2, 3, 4, 12, 13].map((n) => iso(periodStart(cycle, n)))).toEqual([
      '2028-01-31T00:00:00.000Z',
      '2028-02-29T00:00:00.000Z',
      '2028-03-31T00:00:00.000Z',
      '2028-04-30T00:00:00.000Z',
      '2028-05-31T00:00:00.000Z',
      '2029-01-31T00:00:00.000Z',
      '2029-02-28T00:00:00.000Z',
    ]);
  });

  it('yearly on Feb 29 bills Feb 28 in common years and Feb 29 again in leap years', () => {
    const cycle: Cycle = { interval: 'year', intervalCount: 1, anchor: new Date('2028-02-29T09:30:00Z') };
    expect([1, 2, 3, 4].map((n) => iso(periodStart(cycle, n)))).toEqual([
      '2029-02-28T09:30:00.000Z',
      '2030-02-28T09:30:00.000Z',
      '2031-02-28T09:30:00.000Z',
      '2032-02-29T09:30:00.000Z',
    ]);
  });

  it('days, weeks and interval_count', () => {
    const anchor = new Date('2027-03-10T12:00:00Z');
    expect(iso(periodStart({ interval: 'day', intervalCount: 3, anchor }, 2))).toBe(
      '2027-03-16T12:00:00.000Z',
    );
    expect(iso(periodStart({ interval: 'week', intervalCount: 2, anchor }, 1))).toBe(
      '2027-03-24T12:00:00.000Z',
    );
    expect(iso(periodStart({ interval: 'month', intervalCount: 3, anchor }, 4))).toBe(
      '2028-03-10T12:00:00.000Z',
    );
  });

  it("keeps the local time of day across DST in the account's zone", () => {
    // Midnight in New York: -05:00 in winter, -04:00 in summer.
    const cycle = monthly('2027-01-31T05:00:00Z', 'America/New_York');
    expect([1, 2, 3].map((n) => iso(periodStart(cycle, n)))).toEqual([
      '2027-02-28T05:00:00.000Z',
      '2027-03-31T04:00:00.000Z',
      '2027-04-30T04:00:00.000Z',
    ]);
    // Local calendar, not UTC: Jan 31 23:30 in Tokyo is Jan 31 14:30 UTC; next is Feb 28 local.
    const tokyo = monthly('2027-01-31T14:30:00Z', 'Asia/Tokyo');
    expect(iso(periodStart(tokyo, 1))).toBe('2027-02-28T14:30:00.000Z');
  });

  it('moves a wall time in a DST gap forward and picks the earlier of an ambiguous one', () => {
    // 02:30 on 2027-03-14 does not exist in New York; daily anchor at 02:30 local.
    const gap: Cycle = {
      interval: 'day',
      intervalCount: 1,
      anchor: new Date('2027-03-13T07:30:00Z'),
      timeZone: 'America/New_York',
    };
    expect(iso(periodStart(gap, 1))).toBe('2027-03-14T07:30:00.000Z'); // 03:30 EDT
    expect(iso(periodStart(gap, 2))).toBe('2027-03-15T06:30:00.000Z'); // 02:30 EDT
    // 01:30 on 2027-11-07 happens twice; the first (EDT, -04:00) is taken.
    const overlap: Cycle = {
      interval: 'day',
      intervalCount: 1,
      anchor: new Date('2027-11-06T05:30:00Z'),
      timeZone: 'America/New_York',
    };
    expect(iso(periodStart(overlap, 1))).toBe('2027-11-07T05:30:00.000Z');
  });

  it('finds the period containing an instant and the periods due for catch-up', () => {
    const cycle = monthly('2028-01-31T00:00:00Z');
    const p = periodContaining(cycle, new Date('2028-03-15T00:00:00Z'));
    expect([p.index, iso(p.start), iso(p.end)]).toEqual([
      1,
      '2028-02-29T00:00:00.000Z',
      '2028-03-31T00:00:00.000Z',
    ]);
    expect(periodContaining(cycle, new Date('2028-02-29T00:00:00Z')).index).toBe(1);
    expect(periodContaining(cycle, new Date('2028-01-01T00:00:00Z')).index).toBe(-1);
    const due = periodsDueBetween(cycle, new Date('2028-02-10T00:00:00Z'), new Date('2028-05-31T00:00:00Z'));
    expect(due.map((d) => [d.index, iso(d.start)])).toEqual([
      [1, '2028-02-29T00:00:00.000Z'],
      [2, '2028-03-31T00:00:00.000Z'],
      [3, '2028-04-30T00:00:00.000Z'],
      [4, '2028-05-31T00:00:00.000Z'],
    ]);
    expect(
      periodsDueBetween(cycle, new Date('2028-05-31T00:00:00Z'), new Date('2028-06-29T00:00:00Z')),
    ).toEqual([]);
  });

  it('adds trial days on the local calendar', () => {
    expect(iso(addDays(new Date('2028-01-31T00:00:00Z'), 14))).toBe('2028-02-14T00:00:00.000Z');
    expect(iso(addDays(new Date('2027-03-01T05:00:00Z'), 14, 'America/New_York'))).toBe(
      '2027-03-15T04:00:00.000Z',
    );
  });
});

const zones = fc.constantFrom(
  'UTC',
  'America/New_York',
  'Europe/Berlin',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Pacific/Auckland',
);
const cycles = fc.record({
  interval: fc.constantFrom<Interval>('day', 'week', 'month', 'year'),
  intervalCount: fc.integer({ min: 1, max: 6 }),
  anchor: fc.date({
    min: new Date('1990-01-01T00:00:00Z'),
    max: new Date('2060-01-01T00:00:00Z'),
    noInvalidDate: true,
  }),
  timeZone: zones,
});

describe('properties', () => {
  it('period n + 1 starts where period n ends, and starts strictly increase', () => {
    fc.assert(
      fc.property(cycles, fc.integer({ min: -24, max: 240 }), (cycle, n) => {
        const a = periodAt(cycle, n);
        const b = periodAt(cycle, n + 1);
        expect(b.start.getTime()).toBe(a.end.getTime());
        expect(a.end.getTime()).toBeGreaterThan(a.start.getTime());
      }),
      { numRuns: 300 },
    );
  });

  it('no drift over 10 years: period 120 computed directly equals 120 steps of containing(end)', () => {
    fc.assert(
      fc.property(
        cycles.map((c) => ({ ...c, interval: 'month' as const, intervalCount: 1 })),
        (cycle) => {
          let period = periodAt(cycle, 0);
          for (let i = 0; i < 120; i++) period = periodContaining(cycle, period.end);
          expect(period.index).toBe(120);
          expect(period.start.getTime()).toBe(periodStart(cycle, 120).getTime());
        },
      ),
      { numRuns: 40 },
    );
  });

  it('monthly in UTC: day of month = min(anchor day, days in month), same time of day', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1990-01-01T00:00:00Z'),
          max: new Date('2060-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: 0, max: 240 }),
        (anchor, n) => {
          const start = periodStart({ interval: 'month', intervalCount: 1, anchor }, n);
          const month = anchor.getUTCMonth() + n;
          const daysIn = new Date(Date.UTC(anchor.getUTCFullYear(), month + 1, 0)).getUTCDate();
          expect(start.getUTCDate()).toBe(Math.min(anchor.getUTCDate(), daysIn));
          expect(start.getUTCMonth()).toBe(((month % 12) + 12) % 12);
          expect(start.getTime() % 86_400_000).toBe(anchor.getTime() % 86_400_000);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('periodContaining(t) contains t, and periodsDueBetween lists every start in (from, to] once, in order', () => {
    fc.assert(
      fc.property(
        cycles,
        fc.integer({ min: 0, max: 3 * 365 * 86_400 }),
        fc.integer({ min: 0, max: 400 * 86_400 }),
        (cycle, offset, span) => {
          const from = new Date(cycle.anchor.getTime() + offset * 1000);
          const to = new Date(from.getTime() + span * 1000);
          const p = periodContaining(cycle, from);
          expect(p.start.getTime()).toBeLessThanOrEqual(from.getTime());
          expect(p.end.getTime()).toBeGreaterThan(from.getTime());
          const due = periodsDueBetween(cycle, from, to);
          for (const [i, d] of due.entries()) {
            expect(d.start.getTime()).toBeGreaterThan(from.getTime());
            expect(d.start.getTime()).toBeLessThanOrEqual(to.getTime());
            if (i > 0) expect(d.index).toBe(due[i - 1].index + 1);
          }
          // None missed: the period after the last one listed starts after `to`.
          const next = due.length ? due[due.length - 1].index + 1 : p.index + 1;
          expect(periodStart(cycle, next).getTime()).toBeGreaterThan(to.getTime());
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('proration', () => {
  const period = { start: new Date('2028-02-29T00:00:00Z'), end: new Date('2028-03-31T00:00:00Z') };

  it('credits unused time and charges the new price by seconds, half-even', () => {
    // 31-day period, change after 10 days: 21/31 unused.
    const p = prorate({ oldAmount: 1000n, newAmount: 2500n, period, at: new Date('2028-03-10T00:00:00Z') });
    expect(p).toEqual({
      unusedSeconds: 21n * 86_400n,
      periodSeconds: 31n * 86_400n,
      credit: 677n, // 677.419...
      charge: 1694n, // 1693.548...
      net: 1017n,
    });
    // Ties go to even: 1 x 1/2 = 0.5 -> 0; 3 x 1/2 = 1.5 -> 2.
    const half = { start: new Date('2028-01-01T00:00:00Z'), end: new Date('2028-01-01T00:00:02Z') };
    expect(prorateAmount(1n, half, new Date('2028-01-01T00:00:01Z'))).toBe(0n);
    expect(prorateAmount(3n, half, new Date('2028-01-01T00:00:01Z'))).toBe(2n);
  });

  it('never credits more than was paid, nor less than 0, and is exact at the boundaries', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 99_999_999_999n }),
        fc.bigInt({ min: 0n, max: 99_999_999_999n }),
        fc.integer({ min: 1, max: 400 * 86_400 }),
        fc.integer({ min: -86_400, max: 500 * 86_400 }),
        (oldAmount, newAmount, length, offset) => {
          const start = new Date('2028-01-01T00:00:00Z');
          const p = { start, end: new Date(start.getTime() + length * 1000) };
          const at = new Date(start.getTime() + offset * 1000);
          const r = prorate({ oldAmount, newAmount, period: p, at });
          expect(r.credit >= 0n && r.credit <= oldAmount).toBe(true);
          expect(r.charge >= 0n && r.charge <= newAmount).toBe(true);
          expect(r.net).toBe(r.charge - r.credit);
          if (offset <= 0) expect([r.credit, r.charge]).toEqual([oldAmount, newAmount]);
          if (offset >= length) expect([r.credit, r.charge]).toEqual([0n, 0n]);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
