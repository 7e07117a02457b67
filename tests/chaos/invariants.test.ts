// The invariant checker must see breakage: on a sound dataset (real API calls on the embedded
// platform, so the real schema) every invariant passes with something checked; then each
// invariant is broken on purpose, by rows written behind the services' back or by what the
// run "observed", and must fail.

import { randomUUID } from 'node:crypto';
import { startPlatform, eventually, type Platform, type TestAccount } from '../support/platform';
import { checkInvariants, formatResults, INVARIANTS, type Observed, type Sql } from './invariants';

let platform: Platform;
let account: TestAccount;
let sql: Sql;
let observed: Observed;
let payment: string;
let linkId: string;
const key = `chaos-${randomUUID()}`;

async function listedEvents(): Promise<string[]> {
  const ids: string[] = [];
  let after = '';
  for (;;) {
    const page = await platform.api(account.testKey, 'GET', `/v1/events?limit=100${after}`);
    ids.push(...page.body.data.map((e: any) => e.id));
    if (!page.body.has_more) return ids;
    after = `&starting_after=${page.body.data.at(-1).id}`;
  }
}

/** The invariants by what they guard (the registry's order may change). */
const named = (start: string) => {
  const found = INVARIANTS.find((i) => i.name.startsWith(start));
  if (!found) throw new Error(`no invariant starting "${start}"`);
  return found.name;
};
const LEDGER_COVERS = named('every succeeded payment');
const LEDGER_BALANCES = named('the ledger balances');
const REFUNDS = named('no payment refunded beyond');
const LINKS = named('no payment link paid beyond');
const INVOICES = named('invoice numbers');
const EVENTS = named('every committed event');
const DELIVERIES = named('every event reached');
const IDEMPOTENCY = named('no idempotent request');

const failing = async () =>
  (await checkInvariants(sql, observed)).filter((r) => r.violations.length).map((r) => r.name);

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
  sql = (text, params) => platform.sql('payments', text, params);
  const since = new Date(Date.now() - 1000);
  const paid = await platform.api(account.testKey, 'POST', '/v1/transactions/test-helpers/payments', {
    amount: 5000,
    currency: 'USD',
    card_number: '4242424242424242',
  });
  expect(paid.status).toBe(200);
  payment = paid.body.id;
  const refund = await platform.api(account.testKey, 'POST', '/v1/refunds', {
    transaction: payment,
    amount: 1200,
  });
  expect(refund.status).toBe(200);
  const customer = await platform.api(
    account.testKey,
    'POST',
    '/v1/customers',
    { name: 'Idem', metadata: { chaos_idem: key } },
    { 'idempotency-key': key },
  );
  expect(customer.status).toBe(200);
  // Two sent invoices: numbers INV-0001 and INV-0002 for the gapless-number invariant.
  const billed = await platform.api(account.testKey, 'POST', '/v1/customers', {
    name: 'Billed',
    email: 'ap@billed.test',
    currency: 'USD',
  });
  expect(billed.status).toBe(200);
  for (let i = 0; i < 2; i++) {
    const invoice = await platform.api(account.testKey, 'POST', '/v1/invoices', {
      customer: billed.body.id,
      lines: [{ description: 'Work', quantity: 1, unit_amount: 1000 }],
    });
    expect(invoice.status).toBe(200);
  }
  const link = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
    amount: 300,
    currency: 'USD',
  });
  expect(link.status).toBe(200);
  linkId = link.body.id;
  // Wait until the event log holds every committed event.
  const [{ n }] = await sql<{ n: string }>(
    `select (select count(*) from payments.outbox) + (select count(*) from invoicing.outbox) as n`,
  );
  const listed = await eventually(async () => {
    const ids = await listedEvents();
    return ids.length >= Number(n) ? ids : undefined;
  });
  const delivered = (
    await sql<{ id: string }>(`select id from webhooks.events where account_id = $1`, [account.id])
  ).map((r) => r.id);
  observed = {
    accounts: [account.id],
    listedEventIds: listed,
    healthyDeliveries: delivered,
    healthyEnabledEvents: ['*'],
    healthySince: since,
    idempotencyKeys: [key],
  };
}, 240_000);

afterAll(async () => {
  await platform?.stop();
});

it('passes a sound dataset, with something checked by each invariant that can run', async () => {
  const results = await checkInvariants(sql, observed);
  expect(results.map((r) => r.name)).toEqual(INVARIANTS.map((i) => i.name));
  expect(results.filter((r) => r.violations.length)).toEqual([]);
  for (const r of results.filter((x) => !x.skipped))
    expect({ name: r.name, checked: r.checked > 0 }).toEqual({ name: r.name, checked: true });
  expect(formatResults(results)).toContain('checked');
});

it('fails when a listed event is missing, duplicated or never committed, or a delivery is missing', async () => {
  const sound = observed;
  try {
    observed = { ...sound, listedEventIds: sound.listedEventIds.slice(1) };
    expect(await failing()).toEqual([EVENTS]);
    observed = { ...sound, listedEventIds: [...sound.listedEventIds, sound.listedEventIds[0]] };
    expect(await failing()).toEqual([EVENTS]);
    observed = { ...sound, listedEventIds: [...sound.listedEventIds, 'evt_neverCommitted000'] };
    expect(await failing()).toEqual([EVENTS]);
    observed = { ...sound, healthyDeliveries: sound.healthyDeliveries.slice(1) };
    expect(await failing()).toEqual([DELIVERIES]);
  } finally {
    observed = sound;
  }
});

it('fails on a succeeded payment without ledger entries, an unbalanced ledger, an over-refund, a key applied twice and invoice number gaps', async () => {
  // A succeeded payment nobody posted.
  await sql(
    `insert into payments.transactions (id, account_id, livemode, type, status, amount, currency)
     values ('txn_brokenNoLedger01', $1, false, 'payment', 'succeeded', 700, 'USD')`,
    [account.id],
  );
  expect(await failing()).toEqual([LEDGER_COVERS]);
  // ... posted on one side only: now the ledger is unbalanced too.
  await sql(
    `insert into payments.ledger_entries (account_id, livemode, transaction_id, ledger_account, direction, amount, currency)
     values ($1, false, 'txn_brokenNoLedger01', 'processor_clearing', 'debit', 700, 'USD')`,
    [account.id],
  );
  expect(await failing()).toEqual([LEDGER_BALANCES]);
  // Refunds beyond the payment (5000 paid, 1200 refunded, now 4000 more).
  const [refund] = await sql<{ refund_transaction_id: string }>(
    `select refund_transaction_id from payments.refunds where transaction_id = $1`,
    [payment],
  );
  await sql(
    `insert into payments.refunds (id, account_id, livemode, transaction_id, refund_transaction_id, amount, currency, status)
     values ('re_brokenOverRefund1', $1, false, $2, $3, 4000, 'USD', 'succeeded')`,
    [account.id, payment, refund.refund_transaction_id],
  );
  expect(await failing()).toEqual([LEDGER_BALANCES, REFUNDS]);
  // A one-time link paid twice (two succeeded payments, each posted correctly).
  for (const id of ['txn_brokenLinkTwice1', 'txn_brokenLinkTwice2']) {
    await sql(
      `insert into payments.transactions (id, account_id, livemode, type, status, amount, currency, payment_link)
       values ($2, $1, false, 'payment', 'succeeded', 300, 'USD', $3)`,
      [account.id, id, linkId],
    );
    await sql(
      `insert into payments.ledger_entries (account_id, livemode, transaction_id, ledger_account, direction, amount, currency)
       values ($1, false, $2, 'processor_clearing', 'debit', 300, 'USD'), ($1, false, $2, 'merchant_balance:x', 'credit', 300, 'USD')`,
      [account.id, id],
    );
  }
  expect(await failing()).toEqual([LEDGER_BALANCES, REFUNDS, LINKS]);
  // One Idempotency-Key, two customers.
  await sql(
    `insert into invoicing.customers (id, account_id, livemode, name, metadata, created_at, updated_at)
     select 'cus_brokenTwice00001', account_id, livemode, name, metadata, created_at, updated_at
       from invoicing.customers where metadata->>'chaos_idem' = $1`,
    [key],
  );
  expect(await failing()).toContain(IDEMPOTENCY);
  // Invoice numbers: a unique index makes a duplicate impossible, so the break is a gap (a
  // copy of INV-0002 numbered INV-0005).
  await sql(
    `insert into invoicing.invoices
     select (jsonb_populate_record(null::invoicing.invoices,
               to_jsonb(i) || jsonb_build_object('id', 'inv_brokenGap00001', 'number', 'INV-0005', 'page_token', 'broken-gap-token'))).*
       from invoicing.invoices i where account_id = $1 and number = 'INV-0002'`,
    [account.id],
  );
  const invoices = (await checkInvariants(sql, observed)).find((r) => r.name === INVOICES);
  expect(invoices?.checked).toBe(3);
  expect(invoices?.violations.join('\n')).toMatch(/gap between 2 and 5/);
  expect(await failing()).toEqual([LEDGER_BALANCES, REFUNDS, LINKS, INVOICES, IDEMPOTENCY]);
});
