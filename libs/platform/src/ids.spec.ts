import { hasPrefix, ID_PREFIXES, newId, randomBase62 } from './ids';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('newId', () => {
  it('is the prefix, an underscore and 24 base62 characters by default', () => {
    const id = newId('cus');
    expect(id).toMatch(/^cus_[0-9A-Za-z]{24}$/);
    expect(id).toHaveLength('cus_'.length + 24);
  });

  it.each(ID_PREFIXES)('works for the prefix %s', (prefix) => {
    const id = newId(prefix);
    expect(id.startsWith(`${prefix}_`)).toBe(true);
    expect(id.slice(prefix.length + 1)).toMatch(/^[0-9A-Za-z]{24}$/);
    expect(hasPrefix(id, prefix)).toBe(true);
  });

  it('honours a custom length', () => {
    expect(newId('evt', 8)).toMatch(/^evt_[0-9A-Za-z]{8}$/);
    expect(newId('evt', 40)).toMatch(/^evt_[0-9A-Za-z]{40}$/);
  });

  it('has no duplicates over 10 000 ids', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId('txn')));
    expect(ids.size).toBe(10_000);
  });

  it('has unique prefixes', () => {
    expect(new Set(ID_PREFIXES).size).toBe(ID_PREFIXES.length);
    for (const prefix of ID_PREFIXES) expect(prefix).toMatch(/^[a-z]+$/);
  });
});

describe('randomBase62', () => {
  it.each([0, 1, 7, 24, 64, 1000])('returns exactly %i characters', (length) => {
    expect(randomBase62(length)).toHaveLength(length);
  });

  it('uses only the base62 alphabet, and all of it', () => {
    const sample = randomBase62(20_000);
    expect(sample).toMatch(/^[0-9A-Za-z]+$/);
    expect(new Set(sample).size).toBe(62);
  });

  it('has no modulo bias (every character within 6 sigma of uniform)', () => {
    // 256 = 4 x 62 + 8: a plain `byte % 62` would make '0'..'7' 25 % more frequent.
    const perChar = 10_000;
    const sample = randomBase62(62 * perChar);
    const counts = new Map<string, number>();
    for (const c of sample) counts.set(c, (counts.get(c) ?? 0) + 1);
    const sigma = Math.sqrt(perChar);
    for (const c of ALPHABET) {
      expect(Math.abs((counts.get(c) ?? 0) - perChar)).toBeLessThan(6 * sigma);
    }
  });
});

describe('hasPrefix', () => {
  it('accepts ids with the given prefix', () => {
    expect(hasPrefix(newId('inv'), 'inv')).toBe(true);
    expect(hasPrefix('cus_12345678', 'cus')).toBe(true);
    expect(hasPrefix(`cus_${'a'.repeat(64)}`, 'cus')).toBe(true);
  });

  it('refuses another prefix, including one that is a prefix of it', () => {
    expect(hasPrefix(newId('inv'), 'cus')).toBe(false);
    expect(hasPrefix(newId('req'), 're')).toBe(false);
    expect(hasPrefix(newId('re'), 'req')).toBe(false);
    expect(hasPrefix(newId('sub'), 'est')).toBe(false);
  });

  it('refuses malformed ids', () => {
    expect(hasPrefix('cus_', 'cus')).toBe(false);
    expect(hasPrefix('cus_1234567', 'cus')).toBe(false); // 7 chars: too short
    expect(hasPrefix(`cus_${'a'.repeat(65)}`, 'cus')).toBe(false);
    expect(hasPrefix('cus_1234-5678', 'cus')).toBe(false);
    expect(hasPrefix('cus_12345678 ', 'cus')).toBe(false);
    expect(hasPrefix("cus_12345678' or 1=1", 'cus')).toBe(false);
    expect(hasPrefix('CUS_12345678', 'cus')).toBe(false);
    expect(hasPrefix('cus12345678', 'cus')).toBe(false);
  });

  it('refuses non-strings', () => {
    expect(hasPrefix(undefined, 'cus')).toBe(false);
    expect(hasPrefix(null, 'cus')).toBe(false);
    expect(hasPrefix(12345678, 'cus')).toBe(false);
    expect(hasPrefix(['cus_12345678'], 'cus')).toBe(false);
    expect(hasPrefix({ id: 'cus_12345678' }, 'cus')).toBe(false);
  });
});

describe('newSortableId', () => {
  it('sorts bytewise in creation order, also within one millisecond', () => {
    const { newSortableId } = jest.requireActual('./ids') as typeof import('./ids');
    const ids = Array.from({ length: 500 }, (_, i) =>
      newSortableId('evt', 1_800_000_000_000 + Math.floor(i / 100)),
    );
    const sorted = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(sorted).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^evt_[0-9A-Za-z]{24}$/);
  });

  it('never goes backwards when the clock does', () => {
    const { newSortableId } = jest.requireActual('./ids') as typeof import('./ids');
    const a = newSortableId('evt', 1_900_000_000_000);
    const b = newSortableId('evt', 1_800_000_000_000);
    expect(a < b).toBe(true);
  });
});

describe('randomBase62 from the pooled CSPRNG bytes', () => {
  it('never repeats across many short draws that cross the pool boundary', () => {
    // 5,000 draws of 24 characters take ~30 pools of 4 KiB: a byte handed out twice (a pool
    // reused or an offset not advanced) would show up as equal ids across draws.
    const ids = new Set(Array.from({ length: 5_000 }, () => randomBase62(24)));
    expect(ids.size).toBe(5_000);
  });

  it('draws a string longer than a pool', () => {
    const long = randomBase62(10_000);
    expect(long).toMatch(/^[0-9A-Za-z]{10000}$/);
  });
});
