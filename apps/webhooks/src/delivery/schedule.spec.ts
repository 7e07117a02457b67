import { nextAttemptAt } from './schedule';
import { sign } from './signing';

describe('nextAttemptAt', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const delay = (live: boolean, made: number, r = 0.5) =>
    (nextAttemptAt(live, made, now, () => r)?.getTime() ?? NaN) - now.getTime();

  it('follows the live and sandbox schedules', () => {
    expect([1, 2, 3, 9].map((n) => delay(true, n))).toEqual([5000, 300_000, 1_800_000, 86_400_000]);
    expect([1, 2, 3, 4].map((n) => delay(false, n))).toEqual([5000, 60_000, 300_000, 1_800_000]);
  });

  it('jitters by at most 10% and stops when exhausted', () => {
    expect(delay(true, 1, 0)).toBe(4500);
    expect(delay(true, 1, 1)).toBe(5500);
    expect(nextAttemptAt(true, 10, now)).toBeUndefined();
    expect(nextAttemptAt(false, 5, now)).toBeUndefined();
  });
});

describe('sign', () => {
  it('matches the Standard Webhooks test vector', () => {
    // From the Standard Webhooks reference libraries.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const signature = sign(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});
