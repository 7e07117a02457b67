import { iso, isoOrNull } from './clock';
import { tenantOf } from './tenancy';

describe('iso / isoOrNull', () => {
  it('writes a Date or a driver string as RFC 3339 UTC with milliseconds', () => {
    expect(iso(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)))).toBe('2026-01-02T03:04:05.006Z');
    expect(iso('2026-01-02 04:04:05.006+01')).toBe('2026-01-02T03:04:05.006Z');
    expect(isoOrNull(new Date(Date.UTC(2026, 0, 2)))).toBe('2026-01-02T00:00:00.000Z');
  });

  it('keeps a missing nullable timestamp null, and refuses an invalid required one', () => {
    expect(isoOrNull(null)).toBeNull();
    expect(() => iso('not a date')).toThrow(RangeError);
  });
});

describe('tenantOf', () => {
  it('keeps only the account and the mode of the caller', () => {
    const caller = { kind: 'api', account: 'acct_1', livemode: false, key_id: 'key_1', scopes: ['*'] };
    expect(tenantOf(caller)).toEqual({ account: 'acct_1', livemode: false });
  });
});
