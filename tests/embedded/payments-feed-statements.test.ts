// How many statements invoicing's payments feed sends per event, pinned (issue 15: on this
// platform the lever is statements and round trips). Each event goes the real way: written to
// the payments outbox, published by its relay on the embedded bus, handled by the feed's
// @EventPattern handler (PaymentsFeedConsumer) in its inbox transaction. The embedded bus hands
// messages one at a time, so each event is one transaction: BEGIN, its inbox row, its effects,
// COMMIT (on Kafka a lot shares the first two and the last: docs/events.md).
//
// Counted on invoicing's own pool: the statements of the transaction that claims the event's
// inbox row, each named by the invoicing tables it touches.

import { TOPICS, type EventType } from '@paygrid/contracts';
import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { createLogger, emitEvent } from '@paygrid/platform';
import type { PoolClient } from 'pg';
import { eventually } from '../support/platform';
import { onStatement } from '../support/statements';

let embedded: Embedded;
/** The statements of each transaction of invoicing's pool that claimed an inbox row, by event id. */
const byEvent = new Map<string, string[]>();
const account = 'acct_feedstatements';
/** The events published, in order. */
const published: { id: string; type: string }[] = [];

const TABLES = [
  'inbox',
  'payment_facts',
  'receipt_number_counters',
  'receipts',
  'account_profiles',
  'customers',
  'invoices',
  'mail_queue',
];

/** A statement by the tables it names (`receipts` alone when it only reads or writes that one). */
function label(sql: string): string {
  const text = sql.trim().toLowerCase();
  if (/^(begin|commit|rollback)\b/.test(text)) return text.split(/\s/)[0];
  const tables = TABLES.filter((t) => new RegExp(`invoicing\\.${t}\\b`).test(text));
  return tables.length ? tables.join('+') : text.split(/\s+/).slice(0, 3).join(' ');
}

beforeAll(async () => {
  embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    demo: false,
    logger: createLogger('test', process.env.LOG_LEVEL ?? 'silent'),
  });
  const open = new Map<PoolClient, { statements: string[]; event?: string }>();
  onStatement(embedded.services.invoicing.runtime.db.pool, ({ text, values, client }) => {
    const name = label(text);
    if (name === 'begin') open.set(client, { statements: [] });
    const tx = open.get(client);
    if (tx) {
      tx.statements.push(name);
      if (name === 'inbox' && values?.[0] === 'invoicing.payments-feed') tx.event = String(values[1]);
      if (name === 'commit' || name === 'rollback') {
        open.delete(client);
        if (tx.event) byEvent.set(tx.event, tx.statements);
      }
    }
  });
});

afterAll(async () => {
  await embedded?.stop();
});

/** Publishes one payments event the way the payments service does; the feed's statements for it. */
async function handled(type: EventType, object: Record<string, unknown>): Promise<string[]> {
  const event = await embedded.services.payments.runtime.db.transaction((tx) =>
    emitEvent(tx, TOPICS.paymentsEvents, { type, account, livemode: false, object, at: new Date() }),
  );
  published.push({ id: event.id, type });
  return eventually(async () => byEvent.get(event.id), 30_000);
}

const payment = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  object: 'transaction',
  type: 'payment',
  status: 'succeeded',
  amount: 2500,
  currency: 'eur',
  invoice: null,
  customer: null,
  payment_method: { brand: 'visa', last4: '4242' },
  ...extra,
});

const refund = (id: string, transaction: string, status: string) => ({
  id,
  object: 'refund',
  transaction,
  status,
  amount: 1000,
  currency: 'eur',
});

it("a checkout's payment.succeeded: its fact rides in the receipt's statement", async () => {
  expect(await handled('payment.succeeded', payment('txn_feed000000001'))).toEqual([
    'begin',
    'inbox',
    'account_profiles',
    'payment_facts+receipt_number_counters+receipts',
    'commit',
  ]);
});

it('a payment.succeeded whose payer gave an address: the receipt mail is one statement more', async () => {
  expect(
    await handled('payment.succeeded', payment('txn_feed000000002', { receipt_email: 'payer@example.com' })),
  ).toEqual([
    'begin',
    'inbox',
    'account_profiles',
    'payment_facts+receipt_number_counters+receipts',
    'mail_queue',
    'commit',
  ]);
});

it("refund.succeeded: its fact rides in the receipt's update; refund.created is its fact alone", async () => {
  expect(await handled('refund.created', refund('re_feed000000001', 'txn_feed000000002', 'pending'))).toEqual(
    ['begin', 'inbox', 'payment_facts', 'commit'],
  );
  expect(
    await handled('refund.succeeded', refund('re_feed000000001', 'txn_feed000000002', 'succeeded')),
  ).toEqual(['begin', 'inbox', 'payment_facts+receipts', 'account_profiles', 'mail_queue', 'commit']);
  const [receipt] = await embedded.services.invoicing.runtime.db.query<{ amount_refunded: string }>(
    `select amount_refunded from invoicing.receipts where transaction_id = 'txn_feed000000002'`,
  );
  expect(receipt.amount_refunded).toBe('1000');
});

it("a reversed refund (refund.failed after refund.succeeded): its fact rides in the receipt's update", async () => {
  expect(await handled('refund.failed', refund('re_feed000000001', 'txn_feed000000002', 'failed'))).toEqual([
    'begin',
    'inbox',
    'payment_facts+receipts',
    'commit',
  ]);
  const [receipt] = await embedded.services.invoicing.runtime.db.query<{ amount_refunded: string }>(
    `select amount_refunded from invoicing.receipts where transaction_id = 'txn_feed000000002'`,
  );
  expect(receipt.amount_refunded).toBe('0');
});

it('a payment.failed without an invoice: its fact alone', async () => {
  expect(
    await handled(
      'payment.failed',
      payment('txn_feed000000003', { status: 'failed', failure_code: 'declined' }),
    ),
  ).toEqual(['begin', 'inbox', 'payment_facts', 'commit']);
});

it('wrote every fact, riding or alone, and numbered the two receipts without a gap', async () => {
  const db = embedded.services.invoicing.runtime.db;
  const facts = await db.query<{ event_id: string; type: string }>(
    `select event_id, type from invoicing.payment_facts where account_id = $1`,
    [account],
  );
  // Both sides in one order, JavaScript's: the ids are random, and the database's collation and
  // localeCompare disagree on case (evt_..Q.. against evt_..b..).
  const byId = (a: { event_id: string }, b: { event_id: string }) =>
    a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0;
  expect([...facts].sort(byId)).toEqual(published.map(({ id, type }) => ({ event_id: id, type })).sort(byId));
  const receipts = await db.query<{ transaction_id: string; number: string; amount_refunded: string }>(
    `select transaction_id, number, amount_refunded from invoicing.receipts where account_id = $1 order by number`,
    [account],
  );
  expect(receipts).toEqual([
    { transaction_id: 'txn_feed000000001', number: 'RCPT-0001', amount_refunded: '0' },
    { transaction_id: 'txn_feed000000002', number: 'RCPT-0002', amount_refunded: '0' },
  ]);
});
