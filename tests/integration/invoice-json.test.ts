// A page of invoices is written from its rows' text (invoice.serializer.ts invoiceJson,
// through paginate's `textRows`), a single invoice by serializeInvoice. The two must answer the same
// object for every row: this suite compares GET /v1/invoices (the list) with GET
// /v1/invoices/:id for real invoices in each status, and for rows whose stored parts are then
// rewritten with generated values (snapshots in older shapes, lines with and without their
// tax category, payments that failed, metadata and text with escapes, control and astral
// characters, microsecond timestamps), in both modes (PGlite and PostgreSQL).

import fc from 'fast-check';
import { startPlatform, type Platform, type TestAccount } from '../support/platform';
import { invoiceHelpers, LINES } from './invoices/invoices.helpers';

let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  await platform?.stop();
});

const api = (method: string, path: string, body?: unknown) =>
  platform.api(account.testKey, method, path, body);

const { newCustomer: customerOf } = invoiceHelpers(() => ({ platform, account }));
const newCustomer = () => customerOf(account.testKey, { name: 'Ada "Quote" Lovelace' });

/** Every invoice of `customer` as the list writes it and as GET /v1/invoices/:id does. */
async function bothWays(customer: string) {
  const page = await api('GET', `/v1/invoices?customer=${customer}&limit=100`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const single = [];
  for (const invoice of page.body.data) {
    const got = await api('GET', `/v1/invoices/${invoice.id}`);
    expect(got.status).toBe(200);
    single.push(got.body);
  }
  return { listed: page.body.data, single };
}

describe('an invoice as a list page writes it', () => {
  it('is the object GET /v1/invoices/:id answers, in every status', async () => {
    const customer = await newCustomer();
    const created = async (body: Record<string, unknown> = {}) => {
      const invoice = await api('POST', '/v1/invoices', Object.assign({ customer, lines: LINES }, body));
      expect(invoice.status).toBe(200);
      return invoice.body.id as string;
    };
    await created({ send: false, metadata: { order: 'A-1' } });
    await created({ description: 'Consulting, "phase" 2', discount: { percent_bps: 1250 } });
    expect(
      (await api('POST', `/v1/invoices/${await created()}/pay`, { paid_out_of_band: true })).status,
    ).toBe(200);
    expect((await api('POST', `/v1/invoices/${await created()}/void`)).status).toBe(200);
    expect((await api('POST', `/v1/invoices/${await created()}/mark-uncollectible`)).status).toBe(200);
    const { listed, single } = await bothWays(customer);
    expect(listed.map((i: { status: string }) => i.status).sort()).toEqual([
      'draft',
      'open',
      'paid',
      'uncollectible',
      'void',
    ]);
    expect(listed).toStrictEqual(single);
  });

  it('is the object GET /v1/invoices/:id answers, for stored parts in every shape', async () => {
    const customer = await newCustomer();
    const invoice = await api('POST', '/v1/invoices', { customer, lines: LINES });
    expect(invoice.status).toBe(200);
    const id = invoice.body.id as string;

    const text = fc.string({
      unit: fc.oneof(
        fc.constantFrom('"', '\\', '/', '\n', '\t', '\u0001', '\u001f', '\u2028', 'é', '€', '😀', '<', '&'),
        // Any character but U+0000, which PostgreSQL text cannot hold (the API refuses it).
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }).filter((c) => !c.includes('\u0000')),
      ),
      maxLength: 10,
    });
    const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
    /** A member present with a value, present as null, or absent (an older shape). */
    const member = <T>(arb: fc.Arbitrary<T>) => fc.option(maybe(arb), { nil: undefined });
    const line = fc.record(
      {
        description: text,
        quantity: fc.integer({ min: 1, max: 1000 }),
        unit_amount: fc.integer({ min: 0, max: 1_000_000 }),
        tax_rate_bps: fc.integer({ min: 0, max: 3000 }),
        amount: fc.integer({ min: 0, max: 1_000_000_000 }),
        discount_amount: fc.integer({ min: 0, max: 1000 }),
        tax_amount: fc.integer({ min: 0, max: 100_000 }),
        tax_category: member(fc.constantFrom('S', 'Z', 'E', 'AE')),
        tax_exemption_reason: member(text),
      },
      {
        requiredKeys: [
          'description',
          'quantity',
          'unit_amount',
          'tax_rate_bps',
          'amount',
          'discount_amount',
          'tax_amount',
        ],
      },
    );
    const seller = fc.oneof(
      fc.constant(null),
      fc.constant('null'),
      fc.record(
        {
          name: maybe(text),
          legal_name: maybe(text),
          address: maybe(fc.record({ line1: text, country: fc.constantFrom('GB', 'FR') })),
          tax_ids: maybe(fc.array(fc.record({ type: fc.constant('eu_vat'), value: text }), { maxLength: 2 })),
          email: maybe(text),
          phone: maybe(text),
          website: maybe(text),
          footer: maybe(text),
        },
        { requiredKeys: [] },
      ),
    );
    const snapshot = fc.oneof(
      fc.constant(null),
      fc.record(
        {
          name: maybe(text),
          email: maybe(text),
          phone: maybe(text),
          address: maybe(fc.record({ line1: text })),
          tax_id: maybe(text),
          preferred_locales: maybe(fc.array(fc.constantFrom('en', 'fr', 'de'), { maxLength: 2 })),
        },
        { requiredKeys: ['name'] },
      ),
    );
    const lastPayment = maybe(
      fc.record({
        status: fc.constantFrom('pending', 'succeeded', 'failed'),
        transaction: maybe(fc.constant('txn_0123456789abcdef')),
        reference: maybe(text),
        failure_code: maybe(fc.constantFrom('card_declined', 'insufficient_funds')),
        failure_message: maybe(text),
        at: fc.constant('2026-12-07T01:02:03.456Z'),
      }),
    );
    const instant = maybe(fc.integer({ min: 0, max: 4_000_000_000_000_000 }));
    const stored = fc.record({
      status: fc.constantFrom('draft', 'open', 'paid', 'void', 'uncollectible'),
      description: maybe(text),
      lines: fc.array(line, { maxLength: 3 }),
      discount: fc.oneof(
        fc.constant(null),
        fc.record({ percent_bps: fc.integer({ min: 1, max: 10_000 }) }),
        fc.record({ amount: fc.integer({ min: 1, max: 1000 }) }),
      ),
      seller,
      snapshot,
      lastPayment,
      metadata: fc.dictionary(
        text.filter((k) => k.length > 0),
        text,
        { maxKeys: 3 },
      ),
      times: fc.array(instant, { minLength: 9, maxLength: 9 }),
      updated: fc.integer({ min: 0, max: 4_000_000_000_000_000 }),
    });
    const json = (value: unknown) =>
      value === null ? null : typeof value === 'string' ? value : JSON.stringify(value);

    await fc.assert(
      fc.asyncProperty(stored, async (s) => {
        // Microseconds since the epoch: `to_timestamp(0) + n µs`.
        const at = (n: number | null) => (n === null ? null : String(n));
        await platform.sql(
          'invoicing',
          `update invoicing.invoices set status = $2, description = $3, lines = $4::jsonb, discount = $5::jsonb,
             seller = $6::jsonb, customer_snapshot = $7::jsonb, last_payment = $8::jsonb, metadata = $9::jsonb,
             due_date = to_timestamp(0) + $10::bigint * interval '1 microsecond',
             period_start = to_timestamp(0) + $11::bigint * interval '1 microsecond',
             period_end = to_timestamp(0) + $12::bigint * interval '1 microsecond',
             finalized_at = to_timestamp(0) + $13::bigint * interval '1 microsecond',
             paid_at = to_timestamp(0) + $14::bigint * interval '1 microsecond',
             voided_at = to_timestamp(0) + $15::bigint * interval '1 microsecond',
             marked_uncollectible_at = to_timestamp(0) + $16::bigint * interval '1 microsecond',
             sent_at = to_timestamp(0) + $17::bigint * interval '1 microsecond',
             overdue_at = to_timestamp(0) + $18::bigint * interval '1 microsecond',
             updated_at = to_timestamp(0) + $19::bigint * interval '1 microsecond'
           where id = $1`,
          [
            id,
            s.status,
            s.description,
            JSON.stringify(s.lines),
            json(s.discount),
            json(s.seller),
            json(s.snapshot),
            json(s.lastPayment),
            JSON.stringify(s.metadata),
            ...s.times.map(at),
            String(s.updated),
          ],
        );
        const { listed, single } = await bothWays(customer);
        expect(listed).toHaveLength(1);
        expect(listed).toStrictEqual(single);
      }),
      { numRuns: 30 },
    );
  });
});
