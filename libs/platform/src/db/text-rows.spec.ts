import fc from 'fast-check';
import { iso } from '../clock';
import { jsonBool, jsonText, jsonTimestamp } from './text-rows';
import { parseTimestamptz } from './timestamps';

/** What the column parser and `iso` make of a timestamptz's text: the JSON jsonTimestamp must write. */
const viaParser = (text: string) => JSON.stringify(iso(parseTimestamptz(text) as Date));

/** A timestamptz as PostgreSQL writes it in a session at `offsetMinutes` from UTC. */
function pgText(ms: number, micros: number, digits: number, offsetMinutes: number): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString();
  const fraction = String(micros).padStart(6, '0').slice(0, digits).replace(/0+$/, '');
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hours = String(Math.floor(abs / 60)).padStart(2, '0');
  const minutes = abs % 60 ? `:${String(abs % 60).padStart(2, '0')}` : '';
  return `${local.slice(0, 10)} ${local.slice(11, 19)}${fraction ? `.${fraction}` : ''}${sign}${hours}${minutes}`;
}

describe('jsonTimestamp', () => {
  it('writes what the column parser and iso write, for any instant, fraction and zone', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }),
        fc.integer({ min: 0, max: 999_999 }),
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom(0, 0, 0, 60, -480, 330, -210, 765),
        (ms, micros, digits, offset) => {
          const text = pgText(ms - (ms % 1000), micros, digits, offset);
          expect(jsonTimestamp(text)).toBe(viaParser(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('writes UTC texts itself, to the millisecond, truncated', () => {
    expect(jsonTimestamp('2026-11-28 09:11:53.535912+00')).toBe('"2026-11-28T09:11:53.535Z"');
    expect(jsonTimestamp('2026-11-28 09:11:53.5+00')).toBe('"2026-11-28T09:11:53.500Z"');
    expect(jsonTimestamp('2026-11-28 09:11:53+00')).toBe('"2026-11-28T09:11:53.000Z"');
    expect(jsonTimestamp('2026-11-28 23:59:59.9999+00')).toBe('"2026-11-28T23:59:59.999Z"');
  });

  it('leaves other shapes to the parser', () => {
    expect(jsonTimestamp('2026-11-28 09:11:53.535+05:30')).toBe('"2026-11-28T03:41:53.535Z"');
    expect(jsonTimestamp('12026-11-28 09:11:53+00')).toBe(viaParser('12026-11-28 09:11:53+00'));
    expect(jsonTimestamp(null)).toBe('null');
  });
});

describe('jsonText and jsonBool', () => {
  it('write JSON values', () => {
    expect(jsonText('a "quoted"\n\\ \u0001 😀')).toBe(JSON.stringify('a "quoted"\n\\ \u0001 😀'));
    expect(jsonText(null)).toBe('null');
    expect([jsonBool('t'), jsonBool('f'), jsonBool(null)]).toEqual(['true', 'false', 'null']);
  });
});
