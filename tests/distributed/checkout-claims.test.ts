// The checkout's claim under concurrency on real PostgreSQL, step by step rather than raced
// (card-payments/checkout-form-token.ts, form-claims.sql.ts). A first payer's tx1 is held open
// after its claim's statement; the second payer's whole payment then runs, and the test waits
// until PostgreSQL shows it waiting on a lock before letting the first commit:
//   - a link with a limit: the second claim waits on the link's lock, and its statement,
//     sent after the lock was granted, counts the first one in flight: a one-time link's
//     second payer is refused `full`, nothing charged (a count in the locking statement itself
//     would read a snapshot from before the first committed, and charge twice);
//   - a link without a limit: no lock, and a second post of the same form waits on the token's
//     primary key, then answers the first post's payment.
// The embedded database runs one transaction at a time: this suite is distributed only.

import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createLogger, Database } from '@paygrid/platform';
import { CheckoutFormTokens } from '../../apps/payments/src/card-payments/checkout-form-token';
import { PayByCard } from '../../apps/payments/src/card-payments/pay-by-card';
import { ConnectorRouter, NO_LIVE_CONNECTORS } from '../../apps/payments/src/connectors/connector-router';
import { SandboxConnector } from '../../apps/payments/src/connectors/sandbox.connector';
import { writeCardIntent } from '../../apps/payments/src/intents/intents.sql';
import { MandatesService } from '../../apps/payments/src/mandates/mandates.service';
import type { PublicLink } from '../../apps/payments/src/payment-links/payment-link';
import { PaymentLinksService } from '../../apps/payments/src/payment-links/payment-links.service';
import { PAYMENTS_MIGRATIONS } from '../../apps/payments/src/payments';
import type { TransactionRow } from '../../apps/payments/src/transactions/transaction';
import { TransactionsService } from '../../apps/payments/src/transactions/transactions.service';

const name = `paygrid_claims_${randomBytes(5).toString('hex')}`;
const tenant = { account: 'acct_claims0000001', livemode: false };
const card = { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' };
let admin: Client;
let db: Database;
let links: PaymentLinksService;
let forms: CheckoutFormTokens;
let payByCard: PayByCard;

beforeAll(async () => {
  admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${name}`;
  // As the distributed payments service connects: pipelined, named prepared statements.
  db = await Database.connect({
    url: url.toString(),
    schema: 'payments',
    migrations: PAYMENTS_MIGRATIONS,
    poolSize: 4,
    pipeline: true,
    preparedStatements: true,
  });
  await db.migrate();
  const clock = { now: () => new Date() };
  const connectors = new ConnectorRouter(new SandboxConnector(), NO_LIVE_CONNECTORS);
  const transactions = new TransactionsService(db, clock, connectors);
  links = new PaymentLinksService(db, clock, 'http://localhost');
  forms = new CheckoutFormTokens(db, clock, links);
  payByCard = new PayByCard(
    transactions,
    new MandatesService(db, clock, connectors, transactions, createLogger('test', 'silent')),
  );
});

afterAll(async () => {
  await db?.close();
  await admin?.query(`drop database if exists ${name} with (force)`);
  await admin?.end();
});

async function publicLink(input: Record<string, unknown>): Promise<PublicLink> {
  const created = await links.create(tenant, { amount: 800, currency: 'EUR', ...input }, 'Claims');
  const link = await links.findPublic(created.id);
  if (!link) throw new Error('link not found');
  return link;
}

/**
 * A first payer's tx1 as chargeCard runs it (the claim, then the statement that writes the
 * claim's row with the pending payment), held open until `commit()`.
 */
function heldClaim(link: PublicLink, token: string) {
  let commit = () => {};
  const gate = new Promise<void>((resolve) => (commit = resolve));
  let written = () => {};
  const claimed = new Promise<void>((resolve) => (written = resolve));
  const done = db.transaction(async (tx) => {
    const claim = forms.of(link, token).claimIn();
    const intent = await writeCardIntent(
      tx,
      tenant,
      {
        amount: 800n,
        currency: 'EUR',
        merchant: link.merchant_id,
        payment_link: link.id,
        payment_method: null,
      },
      new Date(),
      { merchantRequired: true, claim },
    );
    expect(claim.decide(intent.decision ?? {})).toEqual({ kind: 'claimed' });
    written();
    await gate;
    return intent.row as TransactionRow;
  });
  return { claimed, commit, done };
}

/** Whether a statement of this database waits on a lock within `ms` (polled). */
async function someoneWaits(ms = 5_000): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until;) {
    const { rows } = await admin.query(
      `select count(*)::int as n from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'`,
      [name],
    );
    if (rows[0].n > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

const pay = (link: PublicLink, token: string) =>
  payByCard.pay({
    tenant,
    charge: { amount: 800n, currency: 'EUR', merchant: link.merchant_id ?? undefined, payment_link: link.id },
    card,
    form: forms.of(link, token),
  });

const paymentsOf = async (link: string) =>
  (
    await db.query<{ id: string }>('select id from payments.transactions where payment_link = $1', [link])
  ).map((t) => t.id);

it("a one-time link's second payer waits for the first claim's commit, then counts it in flight: 409 full, nothing charged", async () => {
  const link = await publicLink({});
  const first = heldClaim(link, 'claims-one-time-a');
  await first.claimed;
  const second = pay(link, 'claims-one-time-b');
  const waited = await someoneWaits();
  first.commit();
  const held = await first.done;
  expect(await second).toEqual({ kind: 'full' });
  expect(waited).toBe(true);
  expect(await paymentsOf(link.id)).toEqual([held.id]);
});

it('a second post of one form on a link without a limit waits on the token, then answers the first post’s payment', async () => {
  const link = await publicLink({ type: 'recurring', recurring: { interval: 'month' } });
  const first = heldClaim(link, 'claims-unlimited-a');
  await first.claimed;
  const second = pay(link, 'claims-unlimited-a');
  const waited = await someoneWaits();
  first.commit();
  const held = await first.done;
  // The first post's tx2 gives its token the transaction (what the second one's replay waits for).
  await db.query('update payments.checkout_submissions set transaction_id = $2 where token_hash = $1', [
    'claims-unlimited-a',
    held.id,
  ]);
  expect(await second).toMatchObject({ kind: 'charged', transaction: { id: held.id, status: 'pending' } });
  expect(waited).toBe(true);
  expect(await paymentsOf(link.id)).toEqual([held.id]);
});

it('payers of a link without a limit do not wait on each other', async () => {
  const link = await publicLink({ type: 'recurring', recurring: { interval: 'month' } });
  const first = heldClaim(link, 'claims-parallel-a');
  await first.claimed;
  const second = pay(link, 'claims-parallel-b');
  const answer = await Promise.race([
    second,
    new Promise((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000)),
  ]);
  first.commit();
  await first.done;
  await second;
  expect(answer).toMatchObject({ kind: 'charged', transaction: { status: 'succeeded' } });
  expect(await paymentsOf(link.id)).toHaveLength(2);
});
