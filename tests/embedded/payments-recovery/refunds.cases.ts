// Refunds against the sandbox processor: one whose outcome was lost is re-driven once, a
// declined or failed one gives its reservation back, and one the processor keeps pending is
// asked about again after a wait that doubles.

import type { RefundLookupRequest, RefundOutcome } from '../../../apps/payments/src/connectors/connector';
import { ConnectorRouter, NO_LIVE_CONNECTORS } from '../../../apps/payments/src/connectors/connector-router';
import { SandboxConnector } from '../../../apps/payments/src/connectors/sandbox.connector';
import { ledgerImbalances, postingMismatches } from '../../../apps/payments/src/ledger/ledger';
import { RefundsService } from '../../../apps/payments/src/refunds/refunds.service';
import { card, CrashingConnector, DecliningRefunds, tenant, type RecoveryContext } from './recovery.helpers';

export function refundRecoveryCases(ctx: () => RecoveryContext) {
  it('a refund whose outcome was lost is re-driven to succeeded, exactly once', async () => {
    const { db, services, eventsOf } = ctx();
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
    const { db, services, eventsOf } = ctx();
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
    const { db, services, eventsOf } = ctx();
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
    const { db, services } = ctx();
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
    const { db, services, eventsOf } = ctx();
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
}
