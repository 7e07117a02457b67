// How a timestamptz column becomes a Date. pg's own parser (postgres-date) runs a general
// regular expression and a second one for the offset on every value: about 1.3 µs each, and a
// page of 100 invoices reads about 1,000 of them (bench/README.md finding 20). PostgreSQL
// writes timestamptz in one shape under the ISO DateStyle, `2026-11-28 09:11:53.535012+00`
// (offset `+HH`, `+HH:MM` or `+HH:MM:SS`), which is read here digit by digit; anything else
// (BC dates, infinity, years of other than four digits or before 1000) goes to pg's parser.

import { types } from 'pg';

const TIMESTAMPTZ = 1184;
const pgParse = types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => Date | number | null;

const ZERO = 48;
const PLUS = 43;
const MINUS = 45;
const COLON = 58;

/** The digits of `text` from `at` to `at + length` as a number, or -1 if one is not a digit. */
function digits(text: string, at: number, length: number): number {
  let value = 0;
  for (let i = at; i < at + length; i++) {
    const d = text.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** The instant of a timestamptz as PostgreSQL writes it in text (`Date`, or pg's answer). */
export function parseTimestamptz(text: string): Date | number | null {
  const n = text.length;
  if (
    n < 22 ||
    text.charCodeAt(4) !== MINUS ||
    text.charCodeAt(7) !== MINUS ||
    text.charCodeAt(10) !== 32 ||
    text.charCodeAt(13) !== COLON ||
    text.charCodeAt(16) !== COLON
  ) {
    return pgParse(text);
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 1000 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return pgParse(text);
  // The fraction: milliseconds are its first three digits (pg's parser truncates the same way).
  let i = 19;
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    i++;
    const start = i;
    while (i < n) {
      const d = text.charCodeAt(i) - ZERO;
      if (d < 0 || d > 9) break;
      if (i - start < 3) ms = ms * 10 + d;
      i++;
    }
    const kept = Math.min(i - start, 3);
    if (kept === 0) return pgParse(text);
    ms *= kept === 1 ? 100 : kept === 2 ? 10 : 1;
  }
  const sign = text.charCodeAt(i);
  if (sign !== PLUS && sign !== MINUS) return pgParse(text);
  let offset = digits(text, i + 1, 2) * 3600;
  i += 3;
  for (const unit of [60, 1]) {
    if (i === n) break;
    const part = text.charCodeAt(i) === COLON ? digits(text, i + 1, 2) : -1;
    if (part < 0) return pgParse(text);
    offset += part * unit;
    i += 3;
  }
  if (offset < 0 || i !== n) return pgParse(text);
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  return new Date(sign === PLUS ? utc - offset * 1000 : utc + offset * 1000);
}

/** The type parsers of the platform's pools: pg's, but for timestamptz. */
export const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ && format !== 'binary'
      ? parseTimestamptz
      : types.getTypeParser(oid, format)) as typeof types.getTypeParser,
};
