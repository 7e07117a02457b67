// The scheduler's hard cases at the service level against the embedded database, with a
// ManualClock: a crash between the intent and the outcome (the connector call never
// answers) is re-driven once by recoverPending and never double-charged; a second
// scheduler started meanwhile does not charge the cycle again; two schedulers racing over
// the same due mandates start each cycle exactly once; and every charge date comes from the
// anchor (month-end clamping, no drift) over a year of cycles.

import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { createLogger, ManualClock, signContext, type Database } from '@paygrid/platform';
import type { PaymentConnector } from '../../apps/payments/src/connectors/connector';
import { ConnectorRouter, NO_LIVE_CONNECTORS } from '../../apps/payments/src/connectors/connector-router';
import { SandboxConnector } from '../../apps/payments/src/connectors/sandbox.connector';
import { ledgerImbalances, postingMismatches } from '../../apps/payments/src/ledger/ledger';
import { cycleDate } from '../../apps/payments/src/mandates/cycle';
import { MandatesService, type MandateRow } from '../../apps/payments/src/mandates/mandates.service';
import { PaymentLinksService } from '../../apps/payments/src/payment-links/payment-links.service';
import { TransactionsService } from '../../apps/payments/src/transactions/transactions.service';

let embedded: Embedded;
let db: Database;
const clock = new ManualClock('2027-01-31T09:00:00Z');
const logger = createLogger('test', process.env.LOG_LEVEL ?? 'silent');
const card = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2099, cvc: '123' };
const DAY = 86_400_000;

/** Connector calls of stored credentials, by idempotency key. */
const storedCalls: string[] = [];

class CountingConnector extends SandboxConnector {
  override chargeStored: PaymentConnector['chargeStored'] = async (request) => {
    storedCalls.push(request.idempotency_key);
    return new SandboxConnector().chargeStored(request);
  };
}

/** The processor took the charge, but the answer never came back (a crash, a reset). */
class LostAnswerConnector extends SandboxConnector {
  override chargeStored: PaymentConnector['chargeStored'] = async (request) => {
    storedCalls.push(request.idempotency_key);
    await new SandboxConnector().chargeStored(request);
    throw new Error('connection reset');
  };
}

const services = (sandbox: PaymentConnector) => {
  const connector = new ConnectorRouter(sandbox, NO_LIVE_CONNECTORS);
  const transactions = new TransactionsService(db, clock, connector);
  return { transactions, mandates: new MandatesService(db, clock, connector, transactions, logger) };
};

/** A monthly mandate made through a real first charge (the checkout's path, without HTTP). */
async function monthlyMandate(account: string): Promise<MandateRow> {
  const { transactions, mandates } = services(new SandboxConnector());
  const tenant = { account, livemode: false };
  const payment = await transactions.chargeCard(
    tenant,
    { amount: 999n, currency: 'EUR', card, account_name: 'Recovery Ltd' },
    {
      storeCredential: true,
      onSucceeded: (tx, row, credential) =>
        mandates.createWithPayment(tx, row, {
          merchant: row.merchant_id,
          payer: { name: 'Ada', email: null },
          payment_method: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099 },
          credential: credential ?? '',
          currency: 'EUR',
          recurring: { amount: 999n, interval: 'month', interval_count: 1 },
        }),
    },
  );
  expect(payment.status).toBe('succeeded');
  const [mandate] = await db.query<MandateRow>('select * from payments.mandates where id = $1', [
    payment.mandate,
  ]);
  return mandate;
}

const paymentsOf = (mandate: string) =>
  db.query<{ id: string; status: string }>(
    `select id, status from payments.transactions where mandate = $1 order by created_at, id`,
    [mandate],
  );

beforeAll(async () => {
  embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    demo: false,
    logger,
    // The service's own background jobs stay out of the way: this suite drives them by hand.
    env: { PAYMENTS_JOBS_ENABLED: 'false' },
  });
  db = embedded.services.payments.runtime.db;
});

afterAll(async () => {
  await embedded?.stop();
});

it('re-drives a charge whose answer was lost, once, and no other scheduler charges the cycle meanwhile', async () => {
  const mandate = await monthlyMandate('acct_mdtrecovery01');
  clock.set(mandate.next_charge_at as Date);

  const crashed = services(new LostAnswerConnector());
  expect(await crashed.mandates.chargeDue()).toBe(1);
  const [first, pending] = await paymentsOf(mandate.id);
  expect(first.status).toBe('succeeded');
  expect(pending.status).toBe('pending');

  // Another instance, healthy, looks for due work: the pending intent holds the cycle.
  const healthy = services(new CountingConnector());
  expect(await healthy.mandates.chargeDue()).toBe(0);
  // The card-charge recovery leaves stored-credential intents alone (they can be re-driven).
  expect(await healthy.transactions.recoverPending(0)).toBe(0);
  // Too recent to be a crash's leftover.
  expect(await healthy.mandates.recoverPending(5 * 60_000)).toBe(0);

  clock.advance(10 * 60_000);
  expect(await healthy.mandates.recoverPending(5 * 60_000)).toBe(1);
  expect(await healthy.mandates.recoverPending(5 * 60_000)).toBe(0);
  const after = await paymentsOf(mandate.id);
  expect(after.map((p) => p.status)).toEqual(['succeeded', 'succeeded']);
  // Two calls reached the processor for that charge, both with the same idempotency key:
  // the processor dedupes them, and one payment is recorded.
  expect(storedCalls.filter((key) => key === pending.id)).toHaveLength(2);
  const [advanced] = await db.query<MandateRow>('select * from payments.mandates where id = $1', [
    mandate.id,
  ]);
  expect(advanced.next_cycle).toBe(2);
  expect(new Date(advanced.next_charge_at as Date).toISOString()).toBe(
    cycleDate(new Date(mandate.anchor_at as Date), 'month', 1, 2).toISOString(),
  );
  expect(await ledgerImbalances(db)).toEqual([]);
  expect(await postingMismatches(db)).toEqual([]);
});

it('two schedulers racing over the same due mandates start each cycle exactly once', async () => {
  clock.set('2027-03-01T00:00:00Z');
  const mandates = await Promise.all(
    Array.from({ length: 12 }, (_, i) => monthlyMandate(`acct_mdtrace${String(i).padStart(5, '0')}`)),
  );
  clock.advance(32 * DAY);
  const a = services(new CountingConnector());
  const b = services(new CountingConnector());
  const started = await Promise.all([
    a.mandates.chargeDue(5),
    b.mandates.chargeDue(5),
    a.mandates.chargeDue(5),
    b.mandates.chargeDue(5),
    a.mandates.chargeDue(5),
  ]);
  const total = started.reduce((x, y) => x + y, 0);
  // Every due mandate started once (12 of ours, plus the first test's, due again by now).
  expect(total).toBeGreaterThanOrEqual(12);
  expect(await a.mandates.chargeDue()).toBe(0);
  for (const mandate of mandates) {
    expect((await paymentsOf(mandate.id)).map((p) => p.status)).toEqual(['succeeded', 'succeeded']);
  }
  const [{ duplicates }] = await db.query<{ duplicates: number }>(
    `select count(*)::int as duplicates from (
       select mandate_id, cycle from payments.mandate_charges where kind = 'cycle' and status = 'succeeded'
        group by mandate_id, cycle having count(*) > 1) d`,
  );
  expect(duplicates).toBe(0);
  expect(await ledgerImbalances(db)).toEqual([]);
});

it('charges a Jan 31 mandate on the last day of shorter months and back on the 31st, over a year', async () => {
  clock.set('2028-01-31T12:00:00Z');
  const mandate = await monthlyMandate('acct_mdtdrift001');
  const { mandates } = services(new SandboxConnector());
  const seen: string[] = [];
  for (let month = 1; month <= 12; month++) {
    const [current] = await db.query<MandateRow>('select * from payments.mandates where id = $1', [
      mandate.id,
    ]);
    seen.push(new Date(current.next_charge_at as Date).toISOString().slice(0, 10));
    clock.set(current.next_charge_at as Date);
    await mandates.chargeDue();
  }
  expect(seen).toEqual([
    '2028-02-29',
    '2028-03-31',
    '2028-04-30',
    '2028-05-31',
    '2028-06-30',
    '2028-07-31',
    '2028-08-31',
    '2028-09-30',
    '2028-10-31',
    '2028-11-30',
    '2028-12-31',
    '2029-01-31',
  ]);
  expect((await paymentsOf(mandate.id)).filter((p) => p.status === 'succeeded')).toHaveLength(13);
});

it('expires a link once when two instances run the expiry job together, and forgets old form submissions', async () => {
  clock.set('2030-01-01T00:00:00Z');
  const links = new PaymentLinksService(db, clock, 'http://localhost');
  const link = await links.create(
    { account: 'acct_mdtexpiry001', livemode: false },
    { amount: 100, currency: 'USD', expires_at: '2030-01-01T00:01:00Z' },
    'Expiry Ltd',
  );
  await db.query(
    `insert into payments.checkout_submissions (token_hash, payment_link_id, created_at) values ('old', $1, $2), ('new', $1, $3)`,
    [link.id, new Date('2029-12-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z')],
  );
  clock.advance(120_000);
  const other = new PaymentLinksService(db, clock, 'http://localhost');
  const expired = await Promise.all([links.expireDue(), other.expireDue(), links.expireDue()]);
  expect(expired.reduce((a, b) => a + b, 0)).toBe(1);
  const events = await db.query<{ type: string }>(
    `select payload->>'type' as type from payments.outbox where payload->'data'->'object'->>'id' = $1 order by id`,
    [link.id],
  );
  expect(events.map((e) => e.type)).toEqual(['payment_link.created', 'payment_link.expired']);
  await links.pruneSubmissions(7 * DAY);
  const left = await db.query<{ token_hash: string }>(
    'select token_hash from payments.checkout_submissions where payment_link_id = $1',
    [link.id],
  );
  expect(left.map((r) => r.token_hash)).toEqual(['new']);
});

it('has no test clock route unless PAYMENTS_TEST_CLOCK is set', async () => {
  const payments = embedded.services.payments;
  const url = '/internal/test-clock/advance';
  const headers = signContext(
    payments.runtime.config.internalSecret,
    { kind: 'operator', request_id: 'req_testclockabsent', issued_at: Date.now() },
    'POST',
    url,
  );
  const response = await payments.app.inject({
    method: 'POST',
    url,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify({ ms: 1000 }),
  });
  expect(response.statusCode).toBe(404);
});
