// Crash recovery of charge and refund intents, and a processor that declines a refund, at
// the service level against the embedded database (no HTTP: the crash is simulated by a
// connector that throws after tx1 committed).

import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { createLogger, type Database } from '@paygrid/platform';
import {
  ABANDONED_MESSAGE,
  type PaymentConnector,
  type RefundLookupRequest,
  type RefundOutcome,
} from '../../apps/payments/src/connectors/connector';
import {
  ConnectorRouter,
  NO_LIVE_CONNECTORS,
  type LiveConnectors,
} from '../../apps/payments/src/connectors/connector-router';
import { SandboxChallenges } from '../../apps/payments/src/connectors/sandbox-challenges';
import { SandboxConnector } from '../../apps/payments/src/connectors/sandbox.connector';
import { StripeProcessor } from '../../apps/payments/src/connectors/stripe';
import { ledgerImbalances, postingMismatches } from '../../apps/payments/src/ledger/ledger';
import { RefundsService } from '../../apps/payments/src/refunds/refunds.service';
import { TransactionsService } from '../../apps/payments/src/transactions/transactions.service';
import {
  apiBaseOf,
  startRecordingProxy,
  startStripeMock,
  type RecordingProxy,
  type StripeMock,
} from '../support/stripe-mock';

let embedded: Embedded;
let db: Database;
const tenant = { account: 'acct_recovery01', livemode: false };
const card = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2099, cvc: '123' };

class CrashingConnector extends SandboxConnector {
  override async charge(): Promise<never> {
    throw new Error('connection reset');
  }
  override async refund(): Promise<never> {
    throw new Error('connection reset');
  }
}

class DecliningRefunds extends SandboxConnector {
  override refund: PaymentConnector['refund'] = async (request) => ({
    status: 'failed',
    code: 'processing_error',
    message: 'The processor refused the refund.',
    processor_reference: `sbx_re_${request.idempotency_key}`,
  });
}

/** `authenticationTimeoutMs`: how long a payer has for 3-D Secure (default: the service's hour). */
const services = (sandbox: PaymentConnector, authenticationTimeoutMs?: number) => {
  const connector = new ConnectorRouter(sandbox, NO_LIVE_CONNECTORS);
  const clock = embedded.services.payments.runtime.clock;
  return {
    transactions: new TransactionsService(db, clock, connector, undefined, authenticationTimeoutMs),
    refunds: new RefundsService(db, clock, connector),
  };
};

const eventsOf = async (id: string) =>
  (
    await db.query<{ type: string }>(
      `select payload->>'type' as type from payments.outbox where payload->'data'->'object'->>'id' = $1 order by id`,
      [id],
    )
  ).map((e) => e.type);

beforeAll(async () => {
  embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    demo: false,
    logger: createLogger('test', process.env.LOG_LEVEL ?? 'silent'),
  });
  db = embedded.services.payments.runtime.db;
});

afterAll(async () => {
  await embedded?.stop();
});

it('a charge whose answer was lost is recorded as the processor made it, never failed blindly', async () => {
  await expect(
    services(new CrashingConnector()).transactions.chargeCard(tenant, {
      amount: 1500n,
      currency: 'USD',
      card,
    }),
  ).rejects.toThrow('connection reset');
  const [pending] = await db.query<{ id: string; status: string; payment_method: unknown }>(
    `select id, status, payment_method from payments.transactions where account_id = $1 and status = 'pending'`,
    [tenant.account],
  );
  expect(pending.payment_method).toEqual({ brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099 });
  const { transactions } = services(new SandboxConnector());
  expect(await transactions.recoverPending(60_000)).toBe(0); // too recent
  expect(await transactions.recoverPending(0)).toBe(1);
  // The sandbox's answer for 4242 is succeeded: recovery records it, with its ledger legs.
  const after = await transactions.get(tenant, pending.id);
  expect(after).toMatchObject({
    status: 'succeeded',
    processor_reference: expect.stringMatching(/^sbx_ch_/),
  });
  expect(await eventsOf(pending.id)).toEqual(['payment.succeeded']);
  expect(await transactions.recoverPending(0)).toBe(0);
  expect(await ledgerImbalances(db)).toEqual([]);
  expect(await postingMismatches(db)).toEqual([]);
});

it('a declined charge whose answer was lost is recovered as declined', async () => {
  const declined = { ...card, number: '4000 0000 0000 0002' };
  const other = { account: 'acct_recovery3ds2', livemode: false };
  await expect(
    services(new CrashingConnector()).transactions.chargeCard(other, {
      amount: 700n,
      currency: 'EUR',
      card: declined,
    }),
  ).rejects.toThrow('connection reset');
  const { transactions } = services(new SandboxConnector());
  expect(await transactions.recoverPending(0)).toBe(1);
  const [row] = await db.query<{ status: string; failure_code: string }>(
    'select status, failure_code from payments.transactions where account_id = $1',
    [other.account],
  );
  expect(row).toEqual({ status: 'failed', failure_code: 'card_declined' });
});

it('a payment left requires_action is settled by recovery once the processor decides, never before', async () => {
  const decisions = new Map<string, 'approved' | 'failed'>();
  const sandbox = new SandboxConnector({
    decision: async (reference) => decisions.get(reference),
    decide: async () => {
      throw new Error('the payer has an hour: nothing is canceled here');
    },
  });
  const { transactions } = services(sandbox);
  const other = { account: 'acct_recovery3ds4', livemode: false };
  const waiting = await transactions.chargeCard(
    other,
    { amount: 900n, currency: 'EUR', card: { ...card, number: '4000 0027 6000 3184' } },
    { returnUrl: (id) => `https://pay.example.test/pay/return/${id}?token=t` },
  );
  expect(waiting).toMatchObject({
    status: 'requires_action',
    processor_reference: expect.stringMatching(/^sbx_3ds_/),
  });
  expect(await eventsOf(waiting.id)).toEqual(['payment.requires_action']);
  await new Promise((resolve) => setTimeout(resolve, 5));
  expect(await transactions.recoverPending(0)).toBe(0); // the payer has not decided: left as it is
  expect((await transactions.get(other, waiting.id)).status).toBe('requires_action');
  decisions.set(waiting.processor_reference ?? '', 'approved');
  await new Promise((resolve) => setTimeout(resolve, 5));
  expect(await transactions.recoverPending(0)).toBe(1);
  expect((await transactions.get(other, waiting.id)).status).toBe('succeeded');
  expect(await eventsOf(waiting.id)).toEqual(['payment.requires_action', 'payment.succeeded']);
  expect(await ledgerImbalances(db)).toEqual([]);
});

it('a payment abandoned in requires_action is canceled after the bound and failed once; a late approval changes nothing', async () => {
  const challenges = new SandboxChallenges(db, embedded.services.payments.runtime.clock);
  const sandbox = new SandboxConnector(challenges);
  const other = { account: 'acct_abandoned3ds1', livemode: false };
  const waiting = await services(sandbox).transactions.chargeCard(
    other,
    { amount: 1900n, currency: 'EUR', card: { ...card, number: '4000 0027 6000 3184' } },
    { returnUrl: (id) => `https://pay.example.test/pay/return/${id}?token=t` },
  );
  expect(waiting.status).toBe('requires_action');
  await new Promise((resolve) => setTimeout(resolve, 5));
  // Within the bound (an hour here): asked about, left waiting for the payer.
  expect(await services(sandbox).transactions.recoverPending(0)).toBe(0);
  expect((await services(sandbox).transactions.get(other, waiting.id)).status).toBe('requires_action');
  // Past it (a bound of 0 ms stands for the hour gone by): canceled, failed, one event.
  const { transactions } = services(sandbox, 0);
  await new Promise((resolve) => setTimeout(resolve, 5));
  expect(await transactions.recoverPending(0)).toBe(1);
  expect(await transactions.get(other, waiting.id)).toMatchObject({
    status: 'failed',
    failure_code: 'authentication_required',
    failure_message: ABANDONED_MESSAGE,
  });
  expect(await eventsOf(waiting.id)).toEqual(['payment.requires_action', 'payment.failed']);
  // The payer comes back and approves: the challenge is closed, nothing changes.
  expect(await challenges.decide(waiting.processor_reference ?? '', 'approved')).toBe('failed');
  await new Promise((resolve) => setTimeout(resolve, 5));
  expect(await transactions.recoverPending(0)).toBe(0);
  expect(await eventsOf(waiting.id)).toEqual(['payment.requires_action', 'payment.failed']);
  const [legs] = await db.query<{ n: number }>(
    'select count(*)::int as n from payments.ledger_entries where transaction_id = $1',
    [waiting.id],
  );
  expect(legs.n).toBe(0);
});

describe('abandoned 3-D Secure with Stripe (stripe-mock answering requires_action)', () => {
  let mock: StripeMock;
  let proxy: RecordingProxy;
  beforeAll(async () => {
    mock = await startStripeMock('requires_action');
    proxy = await startRecordingProxy(mock.url);
  }, 120_000);
  afterAll(async () => {
    await proxy?.stop();
    await mock?.stop();
  });

  const stripe = () =>
    new StripeProcessor(apiBaseOf(proxy.url)).connector({
      secret_key: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
      webhook_signing_secret: 'whsec_x',
    });
  // stripe-mock validates the cancel but answers from its fixture (still requires_action):
  // the state Stripe would answer is patched onto its answer.
  const canceled = (pi: any) => ({
    ...pi,
    status: 'canceled',
    cancellation_reason: 'abandoned',
    next_action: null,
  });

  async function waitingPayment(account: string) {
    const other = { account, livemode: false };
    const row = await services(stripe()).transactions.chargeCard(
      other,
      { amount: 4200n, currency: 'EUR', card },
      { returnUrl: (id) => `https://pay.example.test/pay/return/${id}?token=t` },
    );
    expect(row).toMatchObject({
      status: 'requires_action',
      processor_reference: expect.stringMatching(/^pi_/),
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { other, row };
  }

  it('cancels the PaymentIntent (abandoned, key <intent>-cancel) and records it failed, once, across a lost answer', async () => {
    const { other, row } = await waitingPayment('acct_abandoned3ds2');
    const connector = stripe();
    // The first cancel reaches Stripe, and its answer is lost (a crash before recording).
    const losing: PaymentConnector = {
      name: 'stripe',
      authenticationOrigins: [],
      charge: (r) => connector.charge(r),
      chargeStored: (r) => connector.chargeStored(r),
      refund: (r) => connector.refund(r),
      lookup: (r) => connector.lookup(r),
      cancelAuthentication: async (r) => {
        await connector.cancelAuthentication(r);
        throw new Error('connection reset');
      },
    };
    const start = proxy.requests.length;
    await expect(services(losing, 0).transactions.recoverPending(0)).rejects.toThrow('connection reset');
    expect((await services(connector).transactions.get(other, row.id)).status).toBe('requires_action');
    // The next run: Stripe has the PaymentIntent canceled (the lookup says so) and it is failed.
    proxy.patchNext('GET', `/v1/payment_intents/${row.processor_reference}`, canceled);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await services(connector, 0).transactions.recoverPending(0)).toBe(1);
    expect(await services(connector).transactions.get(other, row.id)).toMatchObject({
      status: 'failed',
      failure_code: 'authentication_required',
      failure_message: ABANDONED_MESSAGE,
    });
    expect(await eventsOf(row.id)).toEqual(['payment.requires_action', 'payment.failed']);
    const cancels = proxy.requests
      .slice(start)
      .filter(
        (r) => r.method === 'POST' && r.path === `/v1/payment_intents/${row.processor_reference}/cancel`,
      );
    expect(cancels.map((r) => [r.status, r.headers['idempotency-key'], r.body])).toEqual([
      [200, `${row.id}-cancel`, 'cancellation_reason=abandoned'],
    ]);
    // Final: the next run neither asks nor cancels again.
    const before = proxy.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await services(connector, 0).transactions.recoverPending(0)).toBe(0);
    expect(proxy.requests.length).toBe(before);

    // A cancel that Stripe answers at once is recorded at once.
    const second = await waitingPayment('acct_abandoned3ds3');
    proxy.patchNext('POST', `/v1/payment_intents/${second.row.processor_reference}/cancel`, canceled);
    expect(await services(connector, 0).transactions.recoverPending(0)).toBe(1);
    expect((await services(connector).transactions.get(second.other, second.row.id)).status).toBe('failed');
  });

  it('a payer who authenticated just before the cancel keeps the payment: it is recorded succeeded', async () => {
    const { other, row } = await waitingPayment('acct_abandoned3ds4');
    const connector = stripe();
    const pi = row.processor_reference ?? '';
    // Stripe refuses to cancel a PaymentIntent that succeeded meanwhile; its record is read back.
    proxy.failNext(`/v1/payment_intents/${pi}/cancel`, 400, {
      type: 'invalid_request_error',
      code: 'payment_intent_unexpected_state',
      message: 'You cannot cancel this PaymentIntent because it has a status of succeeded.',
    });
    // The first lookup (before the cancel) still says requires_action; the one after: succeeded.
    proxy.patchNext('GET', `/v1/payment_intents/${pi}`, (body) => body);
    let reads = 0;
    proxy.patchNext('GET', `/v1/payment_intents/${pi}`, (body) => {
      reads++;
      return { ...body, status: 'succeeded', next_action: null };
    });
    expect(await services(connector, 0).transactions.recoverPending(0)).toBe(1);
    expect(reads).toBe(1);
    expect((await services(connector).transactions.get(other, row.id)).status).toBe('succeeded');
    expect(await eventsOf(row.id)).toEqual(['payment.requires_action', 'payment.succeeded']);
    expect(await ledgerImbalances(db)).toEqual([]);
  });
});

describe('with Stripe (stripe-mock)', () => {
  let mock: StripeMock;
  let proxy: RecordingProxy;
  beforeAll(async () => {
    mock = await startStripeMock('succeeded');
    proxy = await startRecordingProxy(mock.url);
  }, 120_000);
  afterAll(async () => {
    await proxy?.stop();
    await mock?.stop();
  });

  it('a PaymentIntent that succeeded at Stripe after our answer was lost is recorded succeeded, with one charge', async () => {
    const stripe = new StripeProcessor(apiBaseOf(proxy.url)).connector({
      secret_key: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
      webhook_signing_secret: 'whsec_x',
    });
    // Stripe charges, then the answer is lost on its way back (a reset, a crash before tx2).
    const losing: PaymentConnector = {
      name: 'stripe',
      authenticationOrigins: [],
      charge: async (request) => {
        await stripe.charge(request);
        throw new Error('connection reset');
      },
      chargeStored: (r) => stripe.chargeStored(r),
      refund: (r) => stripe.refund(r),
      lookup: (r) => stripe.lookup(r),
      cancelAuthentication: (r) => stripe.cancelAuthentication(r),
    };
    const other = { account: 'acct_recovery3ds3', livemode: false };
    const start = proxy.requests.length;
    await expect(
      services(losing).transactions.chargeCard(other, { amount: 2500n, currency: 'GBP', card }),
    ).rejects.toThrow('connection reset');
    const { transactions } = services(stripe);
    expect(await transactions.recoverPending(0)).toBe(1);
    const [row] = await db.query<{ id: string; status: string; processor_reference: string }>(
      'select id, status, processor_reference from payments.transactions where account_id = $1',
      [other.account],
    );
    expect(row).toMatchObject({ status: 'succeeded', processor_reference: expect.stringMatching(/^pi_/) });
    const sent = proxy.requests.slice(start).map((r) => [r.method, r.path.split('?')[0]]);
    // One PaymentIntent created (one charge); recovery only searched by our key.
    expect(sent.filter(([m, p]) => m === 'POST' && p === '/v1/payment_intents')).toHaveLength(1);
    const search = proxy.requests.slice(start).find((r) => r.path.startsWith('/v1/payment_intents/search'));
    expect(decodeURIComponent(search?.path ?? '')).toContain(`metadata['paygrid_intent']:'${row.id}'`);
    expect(await eventsOf(row.id)).toEqual(['payment.succeeded']);
    expect(await ledgerImbalances(db)).toEqual([]);
  });

  const stripeConnector = () =>
    new StripeProcessor(apiBaseOf(proxy.url)).connector({
      secret_key: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
      webhook_signing_secret: 'whsec_x',
    });
  const refundPosts = (start: number) =>
    proxy.requests.slice(start).filter((r) => r.method === 'POST' && r.path.split('?')[0] === '/v1/refunds');

  it('a refund Stripe answers pending stays pending; recovery reads it back by its id, never asks again', async () => {
    const stripe = stripeConnector();
    const { transactions, refunds } = services(stripe);
    const other = { account: 'acct_refundpending1', livemode: false };
    const payment = await transactions.chargeCard(other, { amount: 2500n, currency: 'EUR', card });
    expect(payment.status).toBe('succeeded');
    const start = proxy.requests.length;
    proxy.patchNext('POST', '/v1/refunds', (body) => ({ ...body, status: 'pending' }));
    const { refund } = await refunds.create(other, { transaction: payment.id, amount: 1000 });
    expect(refund.status).toBe('pending');
    const { processor_reference: reference } = await transactions.get(other, refund.refund_transaction_id);
    expect(reference).toMatch(/^re_/);
    // Still pending at Stripe: recovery leaves it so.
    proxy.patchNext('GET', `/v1/refunds/${reference}`, (body) => ({ ...body, status: 'pending' }));
    expect(await refunds.recoverPending(0)).toBe(0);
    expect((await refunds.get(other, refund.id)).status).toBe('pending');
    // The next run does not ask again before the wait (deferRefundCheck) is over.
    expect(await refunds.recoverPending(0)).toBe(0);
    await db.query(`update payments.refunds set next_check_at = now() - interval '1 second' where id = $1`, [
      refund.id,
    ]);
    // Stripe has refunded it (stripe-mock answers succeeded): recorded, once.
    expect(await refunds.recoverPending(0)).toBe(1);
    expect(await refunds.get(other, refund.id)).toMatchObject({ status: 'succeeded' });
    const reads = proxy.requests
      .slice(start)
      .filter((r) => r.method === 'GET')
      .map((r) => r.path);
    expect(reads).toEqual([`/v1/refunds/${reference}`, `/v1/refunds/${reference}`]);
    expect(refundPosts(start)).toHaveLength(1);
    expect(await eventsOf(refund.id)).toEqual(['refund.created', 'refund.succeeded']);
    expect(await ledgerImbalances(db)).toEqual([]);
  });

  it("a refund Stripe made after our answer was lost is found among the payment's refunds, not made twice", async () => {
    const stripe = stripeConnector();
    const losing: PaymentConnector = {
      name: 'stripe',
      authenticationOrigins: [],
      charge: (r) => stripe.charge(r),
      chargeStored: (r) => stripe.chargeStored(r),
      refund: async (request) => {
        await stripe.refund(request);
        throw new Error('connection reset');
      },
      lookup: (r) => stripe.lookup(r),
      cancelAuthentication: (r) => stripe.cancelAuthentication(r),
    };
    const other = { account: 'acct_refundlost01', livemode: false };
    const { transactions, refunds } = services(stripe);
    const payment = await transactions.chargeCard(other, { amount: 2500n, currency: 'EUR', card });
    const start = proxy.requests.length;
    await expect(
      services(losing).refunds.create(other, { transaction: payment.id, amount: 700 }),
    ).rejects.toThrow('connection reset');
    const [lost] = await db.query<{ id: string }>('select id from payments.refunds where account_id = $1', [
      other.account,
    ]);
    // Stripe lists the PaymentIntent's refunds; the one carrying our id is the refund it made.
    proxy.patchNext('GET', '/v1/refunds?', (body) => ({
      ...body,
      data: body.data.map((r: Record<string, unknown>) => ({
        ...r,
        status: 'succeeded',
        metadata: { paygrid_refund: lost.id },
      })),
    }));
    expect(await refunds.recoverPending(0)).toBe(1);
    expect(await refunds.get(other, lost.id)).toMatchObject({ status: 'succeeded' });
    const list = proxy.requests.slice(start).find((r) => r.method === 'GET');
    expect(list?.path).toBe(`/v1/refunds?payment_intent=${payment.processor_reference}&limit=100`);
    expect(refundPosts(start)).toHaveLength(1);
    expect(await eventsOf(lost.id)).toEqual(['refund.created', 'refund.succeeded']);
  });

  it("a refund Stripe never made (not among the payment's refunds) is asked for again with the same key", async () => {
    const stripe = stripeConnector();
    const other = { account: 'acct_refundnever1', livemode: false };
    const { transactions, refunds } = services(stripe);
    const payment = await transactions.chargeCard(other, { amount: 2500n, currency: 'EUR', card });
    const start = proxy.requests.length;
    await expect(
      services(new CrashingConnector()).refunds.create(other, { transaction: payment.id, amount: 300 }),
    ).rejects.toThrow('connection reset');
    // stripe-mock's list holds only its fixture refund, which carries no id of ours.
    expect(await refunds.recoverPending(0)).toBe(1);
    const [refund] = await db.query<{ id: string; status: string }>(
      'select id, status from payments.refunds where account_id = $1',
      [other.account],
    );
    expect(refund.status).toBe('succeeded');
    const posts = refundPosts(start);
    expect(posts).toHaveLength(1);
    expect(posts[0].headers['idempotency-key']).toBe(refund.id);
  });
});

it('a refund whose outcome was lost is re-driven to succeeded, exactly once', async () => {
  const sandbox = services(new SandboxConnector());
  const payment = await sandbox.transactions.chargeCard(tenant, { amount: 1000n, currency: 'USD', card });
  expect(payment.status).toBe('succeeded');
  await expect(
    services(new CrashingConnector()).refunds.create(tenant, { transaction: payment.id, amount: 400 }),
  ).rejects.toThrow('connection reset');
  expect((await sandbox.transactions.get(tenant, payment.id)).amount_refunded).toBe('400');
  expect(await sandbox.refunds.recoverPending(0)).toBe(1);
  expect(await sandbox.refunds.recoverPending(0)).toBe(0);
  const [refund] = await db.query<{ id: string; status: string }>(
    'select id, status from payments.refunds where transaction_id = $1',
    [payment.id],
  );
  expect(refund.status).toBe('succeeded');
  expect(await eventsOf(refund.id)).toEqual(['refund.created', 'refund.succeeded']);
  expect(await ledgerImbalances(db)).toEqual([]);
  expect(await postingMismatches(db)).toEqual([]);
});

it('a refund the processor declines releases its reservation', async () => {
  const payment = await services(new SandboxConnector()).transactions.chargeCard(tenant, {
    amount: 1000n,
    currency: 'USD',
    card,
  });
  const { refunds, transactions } = services(new DecliningRefunds());
  const { refund } = await refunds.create(tenant, { transaction: payment.id, amount: 1000 });
  expect(refund).toMatchObject({ status: 'failed', failure_reason: 'The processor refused the refund.' });
  expect((await transactions.get(tenant, payment.id)).amount_refunded).toBe('0');
  const refundTxn = await transactions.get(tenant, refund.refund_transaction_id);
  expect(refundTxn.status).toBe('failed');
  expect(await eventsOf(refund.id)).toEqual(['refund.created', 'refund.failed']);
  expect(await postingMismatches(db)).toEqual([]);
});

it('a refund the processor accepts pending stays pending (a retry answers it) until the processor decides', async () => {
  const { transactions, refunds } = services(new SandboxConnector());
  const payment = await transactions.chargeCard(tenant, {
    amount: 1000n,
    currency: 'USD',
    card: { ...card, number: '4000 0000 0000 7726' },
  });
  const idempotency = { key: 'refund-pending-1', fingerprint: 'f1' };
  const first = await refunds.create(tenant, { transaction: payment.id, amount: 600 }, idempotency);
  expect(first).toMatchObject({ replayed: false, refund: { status: 'pending' } });
  const refundTxn = await transactions.get(tenant, first.refund.refund_transaction_id);
  expect(refundTxn).toMatchObject({
    status: 'pending',
    processor_reference: expect.stringMatching(/^sbx_re_/),
  });
  // The processor has it: a retry of the request answers the pending refund (not 409).
  const retry = await refunds.create(tenant, { transaction: payment.id, amount: 600 }, idempotency);
  expect(retry).toMatchObject({ replayed: true, refund: { id: first.refund.id, status: 'pending' } });
  // The amount stays reserved, and nothing is in the ledger yet.
  expect((await transactions.get(tenant, payment.id)).amount_refunded).toBe('600');
  expect(await eventsOf(first.refund.id)).toEqual(['refund.created']);
  // Recovery asks the processor (lookupRefund), which has decided by now: succeeded, once.
  expect(await refunds.recoverPending(0)).toBe(1);
  expect(await refunds.recoverPending(0)).toBe(0);
  expect(await refunds.get(tenant, first.refund.id)).toMatchObject({ status: 'succeeded' });
  expect(await eventsOf(first.refund.id)).toEqual(['refund.created', 'refund.succeeded']);
  expect(await ledgerImbalances(db)).toEqual([]);
  expect(await postingMismatches(db)).toEqual([]);
});

it('a refund the processor keeps pending is asked about again after a wait that doubles, not on every run', async () => {
  const { transactions } = services(new SandboxConnector());
  const payment = await transactions.chargeCard(tenant, {
    amount: 1000n,
    currency: 'USD',
    card: { ...card, number: '4000 0000 0000 7726' },
  });
  // A processor still deciding after days (some networks take that long), and a clock of our own.
  const asked: string[] = [];
  class StillPending extends SandboxConnector {
    override async lookupRefund(request: RefundLookupRequest): Promise<RefundOutcome> {
      asked.push(request.idempotency_key);
      return { status: 'pending', processor_reference: `sbx_re_${request.idempotency_key}` };
    }
  }
  let now = new Date();
  const refunds = new RefundsService(
    db,
    { now: () => now },
    new ConnectorRouter(new StillPending(), NO_LIVE_CONNECTORS),
  );
  const { refund } = await refunds.create(tenant, { transaction: payment.id, amount: 400 });
  expect(refund.status).toBe('pending');
  const checksOf = () => asked.filter((key) => key === refund.id).length;
  const minutes = (n: number) => (now = new Date(now.getTime() + n * 60_000));

  minutes(6);
  expect(await refunds.recoverPending(5 * 60_000)).toBe(0);
  expect(checksOf()).toBe(1);
  // The next job runs (every 10 s) leave it alone for 5 minutes, then 10, then 20.
  expect(await refunds.recoverPending(5 * 60_000)).toBe(0);
  minutes(4);
  expect(await refunds.recoverPending(5 * 60_000)).toBe(0);
  expect(checksOf()).toBe(1);
  minutes(1);
  await refunds.recoverPending(5 * 60_000);
  expect(checksOf()).toBe(2);
  minutes(9);
  await refunds.recoverPending(5 * 60_000);
  expect(checksOf()).toBe(2);
  minutes(1);
  await refunds.recoverPending(5 * 60_000);
  expect(checksOf()).toBe(3);
  // The wait stops growing at six hours, however long the processor takes.
  for (let i = 0; i < 12; i++) {
    minutes(6 * 60);
    await refunds.recoverPending(5 * 60_000);
  }
  expect(checksOf()).toBe(15);
  const [row] = await db.query<{ next_check_at: Date; recovery_checks: number }>(
    'select next_check_at, recovery_checks from payments.refunds where id = $1',
    [refund.id],
  );
  expect(row.recovery_checks).toBe(15);
  expect(row.next_check_at.getTime() - now.getTime()).toBe(6 * 3_600_000);
  // Still pending and reserved the whole time; the processor's word then settles it at once.
  expect(await refunds.get(tenant, refund.id)).toMatchObject({ status: 'pending' });
  expect((await transactions.get(tenant, payment.id)).amount_refunded).toBe('400');
  expect(
    await db.transaction((tx) =>
      refunds.recordOutcome(tx, tenant, refund.id, {
        status: 'succeeded',
        processor_reference: `sbx_re_${refund.id}`,
      }),
    ),
  ).toBe('refund_succeeded');
  expect(await postingMismatches(db)).toEqual([]);
});

it("a pending refund the processor's webhook then fails gives its reservation back", async () => {
  const { transactions, refunds } = services(new SandboxConnector());
  const payment = await transactions.chargeCard(tenant, {
    amount: 1000n,
    currency: 'USD',
    card: { ...card, number: '4000 0000 0000 7726' },
  });
  const { refund } = await refunds.create(tenant, { transaction: payment.id });
  expect(refund.status).toBe('pending');
  const recorded = await db.transaction((tx) =>
    refunds.recordOutcome(tx, tenant, refund.id, {
      status: 'failed',
      code: 'processing_error',
      message: 'The processor did not make the refund (expired_or_canceled_card).',
      processor_reference: null,
    }),
  );
  expect(recorded).toBe('refund_failed');
  expect(await refunds.get(tenant, refund.id)).toMatchObject({
    status: 'failed',
    failure_reason: 'The processor did not make the refund (expired_or_canceled_card).',
  });
  expect((await transactions.get(tenant, payment.id)).amount_refunded).toBe('0');
  expect(await eventsOf(refund.id)).toEqual(['refund.created', 'refund.failed']);
  expect(await refunds.recoverPending(0)).toBe(0);
  expect(await postingMismatches(db)).toEqual([]);
});

it('refuses a connector call inside a request transaction', async () => {
  const { requestTransaction } = await import('@paygrid/platform');
  const { transactions } = services(new SandboxConnector());
  await db.transaction((tx) =>
    requestTransaction.run({ db, tx }, async () => {
      await expect(transactions.chargeCard(tenant, { amount: 100n, currency: 'USD', card })).rejects.toThrow(
        'must not run inside a database transaction',
      );
    }),
  );
});

it('refuses a live charge without a processor (409 processor_not_configured), before any intent', async () => {
  const { transactions } = services(new SandboxConnector());
  const live = { account: 'acct_recovery03', livemode: true };
  await expect(transactions.chargeCard(live, { amount: 100n, currency: 'USD', card })).rejects.toMatchObject({
    code: 'processor_not_configured',
    status: 409,
  });
  expect(
    await db.query('select id from payments.transactions where account_id = $1', [live.account]),
  ).toEqual([]);
});

it('refuses a live charge without an active merchant (409 merchant_not_active), before any intent', async () => {
  // A live connection stands in for a connected processor (the sandbox here: no money moves).
  const connected: LiveConnectors = {
    forAccount: async () => new SandboxConnector(),
    configuredAccounts: async () => 1,
  };
  const transactions = new TransactionsService(
    db,
    embedded.services.payments.runtime.clock,
    new ConnectorRouter(new SandboxConnector(), connected),
  );
  const live = { account: 'acct_recovery02', livemode: true };
  await expect(transactions.chargeCard(live, { amount: 100n, currency: 'USD', card })).rejects.toMatchObject({
    code: 'merchant_not_active',
    status: 409,
  });
  expect(
    await db.query('select id from payments.transactions where account_id = $1', [live.account]),
  ).toEqual([]);
});
