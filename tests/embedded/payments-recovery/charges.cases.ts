// Recovery of charges whose answer was lost, against the sandbox processor: a crash after the
// intent committed, a decline, and a payment waiting for 3-D Secure that the payer either
// completes or abandons.

import { ABANDONED_MESSAGE } from '../../../apps/payments/src/connectors/connector';
import { SandboxChallenges } from '../../../apps/payments/src/connectors/sandbox-challenges';
import { SandboxConnector } from '../../../apps/payments/src/connectors/sandbox.connector';
import { ledgerImbalances, postingMismatches } from '../../../apps/payments/src/ledger/ledger';
import { card, CrashingConnector, tenant, type RecoveryContext } from './recovery.helpers';

export function chargeRecoveryCases(ctx: () => RecoveryContext) {
  it('a charge whose answer was lost is recorded as the processor made it, never failed blindly', async () => {
    const { db, services, eventsOf } = ctx();
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
    const { db, services } = ctx();
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
    const { db, services, eventsOf } = ctx();
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
    const { db, services, eventsOf, embedded } = ctx();
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
}
