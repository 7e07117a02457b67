import fc from 'fast-check';
import { gcra, policyFor, type GcraPolicy } from './gcra';

/** Runs requests at the given instants through one bucket; returns each decision. */
function run(times: number[], policy: GcraPolicy) {
  let tat: number | undefined;
  return times.map((now) => {
    const decision = gcra(tat, now, policy);
    tat = decision.tat;
    return { now, ...decision };
  });
}

describe('policyFor', () => {
  it('turns requests per second into an interval and a burst of one second', () => {
    expect(policyFor(25)).toEqual({ intervalUs: 40_000, burst: 25 });
    expect(policyFor(100)).toEqual({ intervalUs: 10_000, burst: 100 });
    expect(policyFor(3)).toEqual({ intervalUs: 333_333, burst: 3 });
    expect(policyFor(0)).toEqual({ intervalUs: 1_000_000, burst: 1 });
  });
});

describe('gcra', () => {
  const policy = policyFor(25);
  const T0 = 1_700_000_000_000_000; // microseconds, the size of Redis TIME values

  it('admits a full burst at one instant, counting down, then refuses until the next token', () => {
    const decisions = run(Array<number>(26).fill(T0), policy);
    expect(decisions.slice(0, 25).every((d) => d.allowed)).toBe(true);
    expect(decisions.slice(0, 25).map((d) => d.remaining)).toEqual(
      Array.from({ length: 25 }, (_, i) => 24 - i),
    );
    expect(decisions[25]).toMatchObject({ allowed: false, remaining: 0, retryAfterUs: 40_000 });
    // A refusal does not move the bucket.
    expect(decisions[25].tat).toBe(decisions[24].tat);
    // One interval later exactly one more request passes.
    const later = gcra(decisions[24].tat, T0 + 40_000, policy);
    expect(later).toMatchObject({ allowed: true, remaining: 0 });
    expect(gcra(later.tat, T0 + 40_000, policy).allowed).toBe(false);
  });

  it('says when the next token arrives', () => {
    const first = gcra(undefined, T0, policy);
    expect(first).toMatchObject({ allowed: true, remaining: 24, nextTokenUs: 40_000 });
    const second = gcra(first.tat, T0 + 15_000, policy);
    // 15 ms after the first request, 15 ms of the first token's 40 ms have been refilled.
    expect(second).toMatchObject({ allowed: true, remaining: 23, nextTokenUs: 25_000 });
  });

  it('admits a steady stream at exactly the rate, forever', () => {
    const decisions = run(
      Array.from({ length: 1_000 }, (_, i) => T0 + i * 40_000),
      policy,
    );
    expect(decisions.every((d) => d.allowed)).toBe(true);
  });

  it('treats a stale or missing TAT as a full bucket', () => {
    expect(gcra(T0 - 5_000_000, T0, policy)).toMatchObject({ allowed: true, remaining: 24 });
    expect(gcra(undefined, T0, policy)).toMatchObject({ allowed: true, remaining: 24 });
  });

  it('never admits more than burst + elapsed/interval in any window (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 400 }),
        (rate, gaps) => {
          const p = policyFor(rate);
          let t = T0;
          const times = gaps.map((g) => (t += g));
          const admitted = run(times, p)
            .filter((d) => d.allowed)
            .map((d) => d.now);
          // Every window [admitted[i], admitted[j]] holds at most burst + elapsed / interval.
          for (let i = 0; i < admitted.length; i++) {
            for (let j = i; j < admitted.length; j++) {
              const inWindow = j - i + 1;
              const bound = p.burst + Math.floor((admitted[j] - admitted[i]) / p.intervalUs);
              if (inWindow > bound) return false;
            }
          }
          return true;
        },
      ),
      { numRuns: 200 },
    );
  });

  it('admits a refused request once its Retry-After has passed, and not a microsecond earlier (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000 }),
        fc.integer({ min: 1, max: 2_000 }),
        (rate, requests) => {
          const p = policyFor(rate);
          let tat: number | undefined;
          let refused: ReturnType<typeof gcra> | undefined;
          for (let i = 0; i < requests && !refused; i++) {
            const d = gcra(tat, T0, p);
            if (d.allowed) tat = d.tat;
            else refused = d;
          }
          if (!refused) return requests <= p.burst;
          return (
            !gcra(tat, T0 + refused.retryAfterUs - 1, p).allowed &&
            gcra(tat, T0 + refused.retryAfterUs, p).allowed
          );
        },
      ),
    );
  });

  it('keeps remaining within [0, burst - 1] and the next token within one interval (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000 }),
        fc.array(fc.integer({ min: 0, max: 50_000 }), { maxLength: 300 }),
        (rate, gaps) => {
          const p = policyFor(rate);
          let t = T0;
          return run(
            gaps.map((g) => (t += g)),
            p,
          ).every((d) =>
            d.allowed
              ? d.remaining >= 0 &&
                d.remaining < p.burst &&
                d.nextTokenUs > 0 &&
                d.nextTokenUs <= p.intervalUs
              : d.remaining === 0 && d.retryAfterUs > 0 && d.retryAfterUs <= p.intervalUs,
          );
        },
      ),
    );
  });

  it('takes `want` tokens at once as that many requests at the same instant would (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 1, max: 80 })), {
          maxLength: 60,
        }),
        (rate, steps) => {
          const p = policyFor(rate);
          let t = T0;
          let leased: number | undefined;
          let single: number | undefined;
          for (const [gap, want] of steps) {
            t += gap;
            const lease = gcra(leased, t, p, want);
            // The same instant, one request at a time, until `want` or the first refusal.
            let admitted = 0;
            let last = gcra(single, t, p);
            while (last.allowed) {
              single = last.tat;
              admitted++;
              if (admitted === want) break;
              last = gcra(single, t, p);
            }
            expect(lease.granted).toBe(admitted);
            expect(lease.allowed).toBe(admitted > 0);
            if (lease.allowed) {
              expect(lease.tat).toBe(single);
              expect(lease.remaining).toBe(last.allowed ? last.remaining : 0);
              leased = lease.tat;
            }
          }
        },
      ),
    );
  });
});
