// Rows as PostgreSQL wrote them: each column's text (null for NULL), no type parsing. For a
// page of objects written straight into the answer's JSON (a list of 100 transactions): pg's
// row objects, a Date per timestamp, a JSON.parse per jsonb column, the object the serializer
// makes of them and the JSON.stringify of the page were most of a list's CPU in the service
// (bench/README.md findings 48 and 59), for text that is already JSON or one escape away.

import { iso } from '../clock';
import { parseTimestamptz } from './timestamps';

/** A row of a `textRows` query: the columns in their select list's order. */
export type TextRow = (string | null)[];

const asText = (text: string): string => text;

/** pg's `types` for a text-row query: every column stays the text PostgreSQL sent. */
export const TEXT_TYPES = { getTypeParser: () => asText };

/** A text column as a JSON value: a string, escaped, or null. */
export const jsonText = (text: string | null): string => (text === null ? 'null' : JSON.stringify(text));

/** A boolean column (`t` / `f`) as a JSON value. */
export const jsonBool = (text: string | null): string =>
  text === null ? 'null' : text === 't' ? 'true' : 'false';

const ZERO = 48;
const NINE = 57;
const isDigitAt = (text: string, at: number): boolean => {
  const c = text.charCodeAt(at);
  return c >= ZERO && c <= NINE;
};

/**
 * A timestamptz column as the API writes it (`iso`, as a JSON string), or null. In UTC
 * PostgreSQL writes `2026-11-28 09:11:53.535012+00`: the same digits with a `T`, the
 * fraction cut to milliseconds as the column's parser does, and a `Z`. Any other shape (a
 * session in another time zone, a year past 9999) goes through that parser.
 */
export function jsonTimestamp(text: string | null): string {
  if (text === null) return 'null';
  const end = text.length - 3;
  if (
    end >= 19 &&
    text.charCodeAt(end) === 43 && // +
    text.charCodeAt(end + 1) === ZERO &&
    text.charCodeAt(end + 2) === ZERO &&
    text.charCodeAt(4) === 45 && // -
    text.charCodeAt(10) === 32 && // space
    isDigitAt(text, 0) &&
    isDigitAt(text, 18)
  ) {
    if (end === 19) return `"${text.slice(0, 10)}T${text.slice(11, 19)}.000Z"`;
    if (text.charCodeAt(19) === 46) {
      const ms = `${text.slice(20, Math.min(end, 23))}00`.slice(0, 3);
      return `"${text.slice(0, 10)}T${text.slice(11, 19)}.${ms}Z"`;
    }
  }
  return JSON.stringify(iso(parseTimestamptz(text) as Date));
}

/** A statement for pg that answers text rows (`rowMode: 'array'`, no type parsing). */
export function asTextRows<C extends { text: string; values: unknown[] }>(
  config: C,
): C & { rowMode: 'array'; types: typeof TEXT_TYPES } {
  return Object.assign(config, { rowMode: 'array' as const, types: TEXT_TYPES });
}
