// A page of transactions is written from its rows' text (transaction.ts transactionJson,
// through paginate's `textRows`), a single transaction by serializeTransaction. The two must
// give the same object for every row: this suite holds them to it on generated rows (every
// type and status, amounts up to the maximum, disputes, metadata with quotes, escapes,
// control characters and characters beyond the BMP, microsecond timestamps), listed through
// the gateway in both modes (PGlite and PostgreSQL), and checks the list's answer itself.

import fc from 'fast-check';
import { serializeTransaction, type TransactionRow } from '../../apps/payments/src/transactions/transaction';
import { startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;
let parent: string;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments']);
  const paid = await platform.api(account.testKey, 'POST', '/v1/transactions/test-helpers/payments', {
    amount: 1234,
    currency: 'eur',
    card_number: '4242424242424242',
  });
  expect(paid.status).toBe(200);
  parent = paid.body.id;
});

afterAll(async () => {
  await platform?.stop();
});

const sql = <T>(text: string, params?: unknown[]) => platform.sql<T>('payments', text, params);

/** Each listed transaction is the object serializeTransaction makes of its row. */
async function expectSerialized(listed: { id: string }[]) {
  const rows = await sql<TransactionRow>('select * from payments.transactions where id = any($1)', [
    listed.map((t) => t.id),
  ]);
  const byId = new Map(rows.map((row) => [row.id, serializeTransaction(row)]));
  for (const t of listed) expect(t).toStrictEqual(byId.get(t.id));
}

/** The rows `ids` as the list writes them, and as serializeTransaction makes them, in id order. */
async function bothWays(ids: string[], createdFrom: number, createdTo: number) {
  const rows = await sql<TransactionRow>(
    'select * from payments.transactions where id = any($1) order by id',
    [ids],
  );
  const page = await platform.api(
    account.testKey,
    'GET',
    `/v1/transactions?limit=100&created[gte]=${createdFrom}&created[lt]=${createdTo}`,
  );
  expect(page.status).toBe(200);
  const got = [...page.body.data].sort((a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1));
  return { expected: rows.map(serializeTransaction), got };
}

const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '"',
      '\\',
      '/',
      '\n',
      '\t',
      '\u0001',
      '\u001f',
      '\u007f',
      '\u2028',
      'é',
      '€',
      '😀',
      '<',
      '&',
    ),
    // Any character but U+0000, which PostgreSQL text cannot hold (the API refuses it).
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }).filter((c) => !c.includes('\u0000')),
  ),
  maxLength: 12,
});

const generatedRow = fc.record({
  type: fc.constantFrom('payment', 'refund'),
  status: fc.constantFrom('pending', 'requires_action', 'succeeded', 'failed'),
  amount: fc.integer({ min: 1, max: 99_999_999_999 }),
  refunded: fc.double({ min: 0, max: 1, noNaN: true }),
  disputed: fc.double({ min: 0, max: 1, noNaN: true }),
  currency: fc.constantFrom('EUR', 'USD', 'JPY', 'KWD'),
  metadata: fc.dictionary(
    text.filter((k) => k.length > 0),
    text,
    { maxKeys: 4 },
  ),
  card: fc.option(
    fc.record({
      brand: fc.constantFrom('visa', 'mastercard', 'amex', 'unknown'),
      last4: fc.constantFrom('4242', '0002', '1117'),
      exp_month: fc.integer({ min: 1, max: 12 }),
      exp_year: fc.integer({ min: 2020, max: 2099 }),
    }),
    { nil: null },
  ),
  optional: fc.option(text, { nil: null }),
  failure: fc.option(fc.constantFrom('card_declined', 'insufficient_funds', 'processing_error'), {
    nil: null,
  }),
  micros: fc.integer({ min: 0, max: 999_999 }),
  seconds: fc.integer({ min: 0, max: 2_000_000_000 }),
  fraction: fc.constantFrom(0, 1, 2, 3, 6),
});

/** Each run's rows are created within a day of their own, from the year 3000 on: listed alone. */
const WINDOW_START = Date.UTC(3000, 0, 1) / 1000;

describe('a transaction as a list page writes it', () => {
  it('is the object serializeTransaction makes, for generated rows', async () => {
    let n = 0;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(generatedRow, { minLength: 1, maxLength: 5 }), async (generated) => {
        const ids: string[] = [];
        const from = WINDOW_START + 86_400 * run++;
        for (const [i, g] of generated.entries()) {
          const id = `txn_json${String(n++).padStart(8, '0')}${Math.random().toString(36).slice(2, 10)}`;
          ids.push(id);
          const amountRefunded = Math.floor(g.amount * g.refunded);
          await sql(
            `insert into payments.transactions (id, account_id, livemode, type, status, amount, currency,
               amount_refunded, amount_disputed, refunded_transaction, payment_link, customer, client_reference_id,
               reference, receipt_email, payment_method, failure_code, failure_message, metadata, created_at, updated_at)
             values ($1, $2, false, $3, $4, $5, $6, $7, $8, $9, $10, $10, $10, $17, $10, $11, $12, $13, $14,
               to_timestamp($18::double precision) + make_interval(secs => $16::double precision / 1000000),
               to_timestamp($15::double precision) + make_interval(secs => (999999 - $16::double precision) / 1000000))`,
            [
              id,
              account.id,
              g.type,
              g.status,
              String(g.amount),
              g.currency,
              String(amountRefunded),
              String(Math.floor(g.amount * g.disputed)),
              g.type === 'refund' ? parent : null,
              g.optional,
              g.card === null ? null : JSON.stringify(g.card),
              g.failure,
              g.failure === null ? null : g.optional,
              JSON.stringify(g.metadata),
              g.seconds,
              // Microseconds of as many digits as `fraction` (PostgreSQL drops trailing zeros).
              g.micros - (g.micros % 10 ** (6 - g.fraction)),
              // A reference is unique in its account.
              g.optional === null ? null : `${g.optional}${id}`,
              // Created in this run's own day, listed alone.
              from + i * 60,
            ],
          );
        }
        const { expected, got } = await bothWays(ids, from, from + 86_400);
        expect(got).toStrictEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it('is the object serializeTransaction makes, for a real payment and its refund', async () => {
    const refunded = await platform.api(account.testKey, 'POST', '/v1/refunds', {
      transaction: parent,
      amount: 234,
    });
    expect(refunded.status).toBe(200);
    const page = await platform.api(
      account.testKey,
      'GET',
      '/v1/transactions?limit=100&created[lt]=32503680000',
    );
    expect(page.status).toBe(200);
    const listed = page.body.data as { id: string }[];
    expect(listed.map((t) => t.id)).toContain(parent);
    await expectSerialized(listed);
    expect(listed.find((t) => t.id === parent)).toMatchObject({
      amount: 1234,
      amount_refunded: 234,
      refundable_amount: 1000,
      payment_method: { brand: 'visa', last4: '4242' },
    });
    expect(listed.some((t) => (t as { type?: string }).type === 'refund')).toBe(true);
  });
});

describe('GET /v1/transactions', () => {
  it('answers JSON whose objects are those of serializeTransaction, page after page', async () => {
    const first = await platform.api(account.testKey, 'GET', '/v1/transactions?limit=3');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^application\/json; charset=utf-8$/);
    expect(first.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/transactions' });
    expect(Object.keys(first.body)).toEqual(['object', 'data', 'has_more', 'url']);
    const second = await platform.api(
      account.testKey,
      'GET',
      `/v1/transactions?limit=3&starting_after=${first.body.data[2].id}`,
    );
    expect(second.status).toBe(200);
    const listed = [...first.body.data, ...second.body.data];
    expect(listed).toHaveLength(6);
    await expectSerialized(listed);
    // Newest first, by (created_at, id), across the two pages.
    const order = [...listed].sort((a, b) =>
      a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
    );
    expect(listed.map((t: { id: string }) => t.id)).toEqual(order.map((t) => t.id));
  });

  it('answers an empty page as JSON too', async () => {
    const other = await platform.newAccount(['payments']);
    const page = await platform.api(other.testKey, 'GET', '/v1/transactions?status=failed');
    expect(page.status).toBe(200);
    expect(page.body).toStrictEqual({ object: 'list', data: [], has_more: false, url: '/v1/transactions' });
  });
});
