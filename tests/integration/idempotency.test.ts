// Idempotency keys: replay, reuse with another request, concurrent duplicates, scoping.

import { randomBytes } from 'node:crypto';
import { startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments']);
});

afterAll(async () => {
  await platform?.stop();
});

const key = () => `idem-${randomBytes(8).toString('hex')}`;

async function merchantCount(k: string): Promise<number> {
  const list = await platform.api(k, 'GET', '/v1/merchants?limit=100');
  return list.body.data.length;
}

it('replays the first response for the same key and request, without a second write', async () => {
  const k = key();
  const before = await merchantCount(account.testKey);
  const first = await platform.api(
    account.testKey,
    'POST',
    '/v1/merchants',
    { business_name: 'Once' },
    { 'idempotency-key': k },
  );
  expect(first.status).toBe(200);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  const second = await platform.api(
    account.testKey,
    'POST',
    '/v1/merchants',
    { business_name: 'Once' },
    { 'idempotency-key': k },
  );
  expect(second.status).toBe(200);
  expect(second.headers.get('idempotent-replayed')).toBe('true');
  expect(second.body).toEqual(first.body);
  expect(await merchantCount(account.testKey)).toBe(before + 1);
});

it('refuses the same key with a different request with 422 idempotency_key_reused', async () => {
  const k = key();
  await platform.api(
    account.testKey,
    'POST',
    '/v1/merchants',
    { business_name: 'A' },
    { 'idempotency-key': k },
  );
  const other = await platform.api(
    account.testKey,
    'POST',
    '/v1/merchants',
    { business_name: 'B' },
    { 'idempotency-key': k },
  );
  expect(other.status).toBe(422);
  expect(other.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_reused' });
});

it('applies 25 concurrent duplicates once; the others replay or are told it is in progress', async () => {
  const k = key();
  const fresh = await platform.newAccount(['payments']);
  const responses = await Promise.all(
    Array.from({ length: 25 }, () =>
      platform.api(
        fresh.testKey,
        'POST',
        '/v1/merchants',
        { business_name: 'Concurrent' },
        { 'idempotency-key': k },
      ),
    ),
  );
  const ok = responses.filter((r) => r.status === 200);
  const busy = responses.filter((r) => r.status === 409);
  expect(ok.length + busy.length).toBe(25);
  expect(ok.length).toBeGreaterThanOrEqual(1);
  expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
  for (const r of busy) {
    expect(r.body.error.code).toBe('idempotency_request_in_progress');
    expect(r.headers.get('retry-after')).toBe('1');
  }
  expect(await merchantCount(fresh.testKey)).toBe(1);
  // After the dust settles, a retry replays the original.
  const retry = await platform.api(
    fresh.testKey,
    'POST',
    '/v1/merchants',
    { business_name: 'Concurrent' },
    { 'idempotency-key': k },
  );
  expect(retry.headers.get('idempotent-replayed')).toBe('true');
  expect(retry.body.id).toBe(ok[0].body.id);
});

it('keeps keys apart per account and per mode, and stores nothing for a failed request', async () => {
  const k = key();
  const other = await platform.newAccount(['payments']);
  const a = await platform.api(
    account.testKey,
    'POST',
    '/v1/merchants',
    { business_name: 'Mine' },
    { 'idempotency-key': k },
  );
  const b = await platform.api(
    other.testKey,
    'POST',
    '/v1/merchants',
    { business_name: 'Theirs' },
    { 'idempotency-key': k },
  );
  const live = await platform.api(
    account.liveKey,
    'POST',
    '/v1/merchants',
    { business_name: 'Live' },
    { 'idempotency-key': k },
  );
  expect([a.status, b.status, live.status]).toEqual([200, 200, 200]);
  expect(new Set([a.body.id, b.body.id, live.body.id]).size).toBe(3);

  const k2 = key();
  const bad = await platform.api(
    account.testKey,
    'POST',
    '/v1/merchants',
    { business_name: 'X', email: 'not-an-email' },
    { 'idempotency-key': k2 },
  );
  expect(bad.status).toBe(400);
  const good = await platform.api(
    account.testKey,
    'POST',
    '/v1/merchants',
    { business_name: 'X', email: 'x@x.test' },
    { 'idempotency-key': k2 },
  );
  expect(good.status).toBe(200);
  expect(good.headers.get('idempotent-replayed')).toBeNull();
});

it('rejects an over-long key with 400', async () => {
  const response = await platform.api(
    account.testKey,
    'POST',
    '/v1/merchants',
    { business_name: 'Y' },
    { 'idempotency-key': 'k'.repeat(256) },
  );
  expect(response.status).toBe(400);
  expect(response.body.error.param).toBe('Idempotency-Key');
});
