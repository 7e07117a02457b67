// A transaction reads the same in GET /v1/transactions as in GET /v1/transactions/:id: a
// payment in each of its four statuses, a disputed and a partly refunded one, a refund, and
// edge values no API call makes today (the largest amount, microsecond dates, metadata with
// quotes, a newline, U+2028 and an astral character), in the list's order on every page,
// walked forward and back. A list that selected fewer columns or
// built its objects elsewhere (bench/README.md finding 48 tried PostgreSQL's row_to_json)
// would have to give the same objects.

import { startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;

const api = (method: string, path: string, body?: unknown) =>
  platform.api(account.testKey, method, path, body);

async function pay(amount: number, card: string) {
  const response = await api('POST', '/v1/transactions/test-helpers/payments', {
    amount,
    currency: 'usd',
    card_number: card,
  });
  expect(response.status).toBe(200);
  return response.body as { id: string };
}

/** Rows no API call makes today: edge values of every column the object shows. */
async function insertOddRows() {
  const rows: [string, string, string, string, string, string][] = [
    // id, status, amount, created_at, metadata, payment_method
    [
      'txn_JsonEdge0000000001',
      'succeeded',
      '99999999999',
      '2026-01-01 00:00:00.999999+00',
      JSON.stringify({ 'quote"and\\slash': 'line\nbreak \u2028 é 😀', empty: '' }),
      JSON.stringify({ type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 1, exp_year: 2030 } }),
    ],
    // Pending and dated now: the payments jobs settle a payment pending for over five minutes
    // (STALE_INTENT_MS; no processor knows this one, so it would turn failed mid-suite).
    [
      'txn_JsonEdge0000000002',
      'pending',
      '1',
      `${new Date().toISOString().slice(0, 19)}.000001+00`,
      '{}',
      'null',
    ],
    ['txn_JsonEdge0000000003', 'requires_action', '12345', '1999-12-31 23:59:59.5+00', '{"a":"b"}', 'null'],
    ['txn_JsonEdge0000000004', 'failed', '700', '2026-06-30 12:00:00+02', '{}', 'null'],
  ];
  for (const [id, status, amount, created, metadata, method] of rows) {
    await platform.sql(
      'payments',
      `insert into payments.transactions
         (id, account_id, livemode, type, status, amount, currency, amount_refunded, amount_disputed,
          payment_link, customer, client_reference_id, reference, receipt_email, payment_method,
          failure_code, failure_message, metadata, created_at, updated_at)
       values ($1, $2, false, 'payment', $3, $4::bigint, 'JPY', 0, 0,
               'plink_JsonEdge00001', 'cus_JsonEdge00001', 'order "42"', 'ref-' || $1, 'payer@example.com',
               $7::jsonb, $8, $9, $5::jsonb, $6::timestamptz, $6::timestamptz + interval '1.0015 seconds')`,
      [
        id,
        account.id,
        status,
        amount,
        metadata,
        created,
        method,
        status === 'failed' ? 'card_declined' : null,
        status === 'failed' ? 'The card was declined ("do not honor").' : null,
      ],
    );
  }
}

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments']);
  const paid = await pay(5000, '4242424242424242');
  // A partial refund: a refund transaction, and a payment with amount_refunded.
  expect((await api('POST', '/v1/refunds', { transaction: paid.id, amount: 1200 })).status).toBe(200);
  await pay(800, '4000000000000002'); // declined: failed, with a failure code and message
  await pay(3000, '4000000000000259'); // disputed at once: refundable_amount held back
  await pay(2500, '4242424242424242');
  await insertOddRows();
}, 120_000);

afterAll(() => platform?.stop());

const retrieve = async (id: string) => {
  const response = await api('GET', `/v1/transactions/${id}`);
  expect(response.status).toBe(200);
  return response.body;
};

test('every transaction in the list reads as its own GET does, newest first', async () => {
  const listed = await api('GET', '/v1/transactions?limit=100');
  expect(listed.status).toBe(200);
  expect(listed.headers.get('content-type')).toMatch(/^application\/json/);
  expect(listed.body).toMatchObject({ object: 'list', has_more: false, url: '/v1/transactions' });
  const data = listed.body.data as { id: string; created_at: string }[];
  expect(data.length).toBe(9);
  const kinds = new Set(data.map((t: Record<string, unknown>) => `${t.type}:${t.status}`));
  expect([...kinds].sort()).toEqual([
    'payment:failed',
    'payment:pending',
    'payment:requires_action',
    'payment:succeeded',
    'refund:succeeded',
  ]);
  for (const transaction of data) expect(transaction).toEqual(await retrieve(transaction.id));
  const order = data.map((t) => [t.created_at, t.id]);
  expect(order).toEqual(
    [...order].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? 1 : -1) : a[0] < b[0] ? 1 : -1)),
  );
  // The edge rows' dates to the millisecond, truncated as Date.toISOString() does.
  const byId = new Map(data.map((t) => [t.id, t as Record<string, unknown>]));
  expect(byId.get('txn_JsonEdge0000000001')).toMatchObject({
    created_at: '2026-01-01T00:00:00.999Z',
    updated_at: '2026-01-01T00:00:02.001Z',
    amount: 99_999_999_999,
    refundable_amount: 99_999_999_999,
    metadata: { 'quote"and\\slash': 'line\nbreak \u2028 é 😀', empty: '' },
  });
  expect(byId.get('txn_JsonEdge0000000004')).toMatchObject({
    created_at: '2026-06-30T10:00:00.000Z',
    refundable_amount: 0,
  });
});

test('pages of 3 walked forward and back give the same objects as one page', async () => {
  const all = (await api('GET', '/v1/transactions?limit=100')).body.data as { id: string }[];
  const forward: { id: string }[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await api('GET', `/v1/transactions?limit=3${after ? `&starting_after=${after}` : ''}`);
    expect(page.status).toBe(200);
    forward.push(...page.body.data);
    if (!page.body.has_more) break;
    after = page.body.data[page.body.data.length - 1].id;
  }
  expect(forward).toEqual(all);
  const backward: { id: string }[] = [];
  let before = all[all.length - 1].id;
  for (;;) {
    const page = await api('GET', `/v1/transactions?limit=3&ending_before=${before}`);
    expect(page.status).toBe(200);
    backward.unshift(...page.body.data);
    if (!page.body.has_more) break;
    before = page.body.data[0].id;
  }
  expect(backward).toEqual(all.slice(0, -1));
});

test('filters and an empty page', async () => {
  const failed = await api('GET', '/v1/transactions?status=failed&currency=jpy');
  expect(failed.body.data.map((t: { id: string }) => t.id)).toEqual(['txn_JsonEdge0000000004']);
  const none = await api('GET', '/v1/transactions?currency=chf');
  expect(none.status).toBe(200);
  expect(none.body).toEqual({ object: 'list', data: [], has_more: false, url: '/v1/transactions' });
});
