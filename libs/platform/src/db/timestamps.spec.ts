import { types } from 'pg';
import { parseTimestamptz, pgTypes } from './timestamps';

const pgParse = types.getTypeParser(1184, 'text') as (text: string) => Date | number | null;
const same = (text: string) => {
  const ours = parseTimestamptz(text);
  const theirs = pgParse(text);
  return {
    text,
    ours: ours instanceof Date ? ours.getTime() : ours,
    theirs: theirs instanceof Date ? theirs.getTime() : theirs,
  };
};

describe('parseTimestamptz', () => {
  it('reads the instant pg does for every millisecond, at each fraction length, and for 100,000 microsecond fractions', () => {
    const texts: string[] = [];
    for (let ms = 0; ms < 1000; ms++) {
      const digits = String(ms).padStart(3, '0');
      for (const fraction of [
        digits.slice(0, 1),
        digits.slice(0, 2),
        digits,
        `${digits}4`,
        `${digits}07`,
        `${digits}999`,
      ])
        texts.push(`2026-11-28 09:11:53.${fraction}+00`);
    }
    let seed = 42;
    for (let k = 0; k < 100_000; k++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      texts.push(`2026-11-28 09:11:53.${String(seed % 1_000_000).padStart(6, '0')}+00`);
    }
    const diffs = texts.map(same).filter((r) => r.ours !== r.theirs);
    expect(diffs.slice(0, 5)).toEqual([]);
  });

  it.each([
    '2026-11-28 09:11:53+00',
    '2026-11-28 09:11:53.5+00',
    '2026-11-28 09:11:53.53+00',
    '2026-11-28 09:11:53.535+00',
    '2026-11-28 09:11:53.535012+00',
    '2026-02-28 23:59:59.999999+00',
    '2024-02-29 00:00:00+00',
    '1970-01-01 00:00:00+00',
    '1969-12-31 23:59:59.999+00',
    '1000-01-01 00:00:00+00',
    '9999-12-31 23:59:59.999999+00',
    '2026-11-28 09:11:53.535+05:30',
    '2026-11-28 09:11:53-03',
    '2026-11-28 09:11:53.1-09:30',
    '2026-11-28 09:11:53+14',
    '1900-01-01 00:00:00+00:09:21',
    '1900-01-01 00:00:00-00:17:30',
    '2026-03-29 01:30:00+01',
  ])('reads %s as pg does', (text) => {
    const { ours, theirs } = same(text);
    expect(ours).toBe(theirs);
    expect(Number.isFinite(ours)).toBe(true);
  });

  it.each([
    'infinity',
    '-infinity',
    '0099-06-01 12:00:00+00',
    '0001-01-01 00:00:00+00 BC',
    '2026-11-28 09:11:53+00 BC',
    '12026-11-28 09:11:53+00',
    '2026-11-28 09:11:53.+00',
    '2026-11-28 09:11:53Z',
    '2026-11-28 09:11:53.5x+00',
    '2026-11-28 09:11:53+0a',
    '2026-11-28 09:11:53+00:',
    '2026-11-28 09:11:53+00:00:00:00',
    '2026-11-28T09:11:53+00',
  ])('leaves %s to pg', (text) => {
    const { ours, theirs } = same(text);
    expect(ours).toEqual(theirs);
  });

  it('is the pools’ parser for timestamptz in text only, and pg’s for the rest', () => {
    expect(pgTypes.getTypeParser(1184, 'text')).toBe(parseTimestamptz);
    expect(pgTypes.getTypeParser(1184)).toBe(parseTimestamptz);
    expect(pgTypes.getTypeParser(1114, 'text')).toBe(types.getTypeParser(1114, 'text'));
    expect(pgTypes.getTypeParser(20, 'text')).toBe(types.getTypeParser(20, 'text'));
  });
});
