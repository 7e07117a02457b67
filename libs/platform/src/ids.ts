// Prefixed random identifiers (`cus_4fQ...`). Random, not sequential, so ids never leak
// volumes or ordering across tenants and stay valid when the data is sharded by account.

import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const ID_PREFIXES = [
  'acct',
  'key',
  'mer',
  'plink',
  'txn',
  're',
  'mdt',
  'we',
  'evt',
  'del',
  'cus',
  'inv',
  'sub',
  'est',
  'clock',
  'req',
  'cmd',
  'ii',
  'att',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/** A base62 string of `length` characters from a CSPRNG, without modulo bias. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 62 * 4: bytes at or above it would bias the first characters.
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function newId(prefix: IdPrefix, length = 24): string {
  return `${prefix}_${randomBase62(length)}`;
}

export function hasPrefix(id: unknown, prefix: IdPrefix): id is string {
  return typeof id === 'string' && id.startsWith(`${prefix}_`) && /^[a-z]+_[0-9A-Za-z]{8,64}$/.test(id);
}
