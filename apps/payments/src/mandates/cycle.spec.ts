import fc from 'fast-check';
import { cycleDate, MAX_ATTEMPTS, retryAt } from './cycle';

const at = (iso: string) => new Date(iso);

describe('cycleDate', () => {
  it('clamps to the end of shorter months and comes back to the anchor day (no drift)', () => {
    const anchor = at('2027-01-31T10:15:00Z');
    const dates = [0, 1, 2, 3, 4, 13].map((n) => cycleDate(anchor, 'month', 1, n).toISOString());
    expect(dates).toEqual([
      '2027-01-31T10:15:00.000Z',
      '2027-02-28T10:15:00.000Z',
      '2027-03-31T10:15:00.000Z',
      '2027-04-30T10:15:00.000Z',
      '2027-05-31T10:15:00.000Z',
      '2028-02-29T10:15:00.000Z',
    ]);
  });

  it('handles leap days for yearly mandates and multi-unit intervals', () => {
    const leap = at('2028-02-29T00:00:00Z');
    expect(cycleDate(leap, 'year', 1, 1).toISOString()).toBe('2029-02-28T00:00:00.000Z');
    expect(cycleDate(leap, 'year', 1, 4).toISOString()).toBe('2032-02-29T00:00:00.000Z');
    expect(cycleDate(at('2027-11-30T00:00:00Z'), 'month', 3, 1).toISOString()).toBe(
      '2028-02-29T00:00:00.000Z',
    );
    expect(cycleDate(at('2027-01-01T00:00:00Z'), 'week', 2, 3).toISOString()).toBe(
      '2027-02-12T00:00:00.000Z',
    );
    expect(cycleDate(at('2027-01-01T06:00:00Z'), 'day', 10, 1).toISOString()).toBe(
      '2027-01-11T06:00:00.000Z',
    );
  });

  it('is strictly increasing, keeps the time of day, and never lands past the anchor day', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2090-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom('day', 'week', 'month', 'year' as const),
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 0, max: 60 }),
        (anchor, interval, count, n) => {
          const a = cycleDate(anchor, interval, count, n);
          const b = cycleDate(anchor, interval, count, n + 1);
          expect(b.getTime()).toBeGreaterThan(a.getTime());
          expect(a.getUTCHours()).toBe(anchor.getUTCHours());
          expect(a.getUTCMinutes()).toBe(anchor.getUTCMinutes());
          if (interval === 'month' || interval === 'year') {
            expect(a.getUTCDate()).toBeLessThanOrEqual(anchor.getUTCDate());
            // Clamping only ever happens at the end of a month.
            if (a.getUTCDate() < anchor.getUTCDate()) {
              const next = new Date(a.getTime() + 86_400_000);
              expect(next.getUTCDate()).toBe(1);
            }
          }
        },
      ),
    );
  });

  it('refuses nonsense', () => {
    expect(() => cycleDate(new Date(), 'month', 0, 1)).toThrow(RangeError);
    expect(() => cycleDate(new Date(), 'month', 1, -1)).toThrow(RangeError);
  });
});

describe('retry policy', () => {
  it('retries a failed cycle after one day, then three, then gives up', () => {
    const failed = at('2027-03-01T00:00:00Z');
    expect(retryAt(failed, 1)?.toISOString()).toBe('2027-03-02T00:00:00.000Z');
    expect(retryAt(failed, 2)?.toISOString()).toBe('2027-03-04T00:00:00.000Z');
    expect(retryAt(failed, MAX_ATTEMPTS)).toBeUndefined();
  });
});
