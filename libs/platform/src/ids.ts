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
  'pcon',
  'dp',
  'pevt',
  'rcpt',
  'bps',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/**
 * CSPRNG bytes drawn 4 KiB at a time and handed out once each: one randomBytes call per ~100
 * ids instead of one per id (every gateway request takes a request id; issue 15's hot path).
 * Node's randomUUID caches its entropy the same way. A byte is never handed out twice.
 */
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function randomByte(): number {
  if (poolOffset >= pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  return pool[poolOffset++];
}

/** A base62 string of `length` characters from a CSPRNG, without modulo bias. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    // 248 = 62 * 4: bytes at or above it would bias the first characters.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

export function newId(prefix: IdPrefix, length = 24): string {
  return `${prefix}_${randomBase62(length)}`;
}

export function hasPrefix(id: unknown, prefix: IdPrefix): id is string {
  return typeof id === 'string' && id.startsWith(`${prefix}_`) && /^[a-z]+_[0-9A-Za-z]{8,64}$/.test(id);
}

let lastMs = 0;
let counter = 0;

function base62Fixed(value: number, width: number): string {
  let out = '';
  let n = value;
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/**
 * A prefixed id that sorts (bytewise, i.e. COLLATE "C") in creation order within a process:
 * 8 characters of milliseconds, 3 of a per-millisecond counter, then 13 random ones. Used
 * for events, whose list order must follow the order they were emitted even when several
 * share a transaction (and so a timestamp).
 */
export function newSortableId(prefix: IdPrefix, now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else {
    counter++;
    if (counter >= 62 ** 3) {
      // More than 238k ids in one millisecond: borrow the next millisecond.
      lastMs++;
      counter = 0;
    }
  }
  return `${prefix}_${base62Fixed(lastMs, 8)}${base62Fixed(counter, 3)}${randomBase62(13)}`;
}
