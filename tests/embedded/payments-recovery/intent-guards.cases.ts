// The guards that ride in the statement writing or moving an intent (intents/intents.sql.ts):
// tx1 writes a card payment's intent only for a merchant that may be paid and a form token
// that was claimed, and a refusal rolls the claim back with it; tx2 moves an intent only when
// the caller's claim, sent in the same statement, returned a row.

import { ConnectorRouter, type LiveConnectors } from '../../../apps/payments/src/connectors/connector-router';
import { SandboxConnector } from '../../../apps/payments/src/connectors/sandbox.connector';
import { CheckoutFormTokens } from '../../../apps/payments/src/card-payments/checkout-form-token';
import { PayByCard } from '../../../apps/payments/src/card-payments/pay-by-card';
import { IntentSaga } from '../../../apps/payments/src/intents/intent-saga';
import { insertPaymentIntent } from '../../../apps/payments/src/intents/intents.sql';
import { MandatesService } from '../../../apps/payments/src/mandates/mandates.service';
import { PaymentLinksService } from '../../../apps/payments/src/payment-links/payment-links.service';
import { TransactionsService } from '../../../apps/payments/src/transactions/transactions.service';
import { createLogger } from '@paygrid/platform';
import { card, tenant, type RecoveryContext } from './recovery.helpers';

export function intentGuardCases(ctx: () => RecoveryContext) {
  it('a live checkout to a merchant not yet active is refused before any intent, and its form token stays unclaimed', async () => {
    const { db, embedded } = ctx();
    const clock = embedded.services.payments.runtime.clock;
    // A live connection stands in for a connected processor (the sandbox here: no money moves).
    const connected: LiveConnectors = {
      forAccount: async () => new SandboxConnector(),
      configuredAccounts: async () => 1,
    };
    const connectors = new ConnectorRouter(new SandboxConnector(), connected);
    const transactions = new TransactionsService(db, clock, connectors);
    const links = new PaymentLinksService(db, clock, 'http://localhost');
    const payByCard = new PayByCard(
      transactions,
      new MandatesService(db, clock, connectors, transactions, createLogger('test', 'silent')),
    );
    const forms = new CheckoutFormTokens(db, clock, links);
    const live = { account: 'acct_guards01', livemode: true };
    // The link's merchant is the account's live default one: `pending` until approved.
    const created = await links.create(live, { amount: 1500, currency: 'EUR', max_completions: 2 }, 'Guards');
    const link = await links.findPublic(created.id);
    if (!link?.merchant_id) throw new Error('the link has no merchant');
    const pay = () =>
      payByCard.pay({
        tenant: live,
        charge: {
          amount: 1500n,
          currency: 'EUR',
          merchant: link.merchant_id ?? undefined,
          payment_link: link.id,
        },
        card,
        form: forms.of(link, 'guards-token-1'),
      });
    expect(await pay()).toEqual({ kind: 'merchant_not_active' });
    expect(
      await db.query('select id from payments.transactions where account_id = $1', [live.account]),
    ).toEqual([]);
    // The statement that refused the intent wrote no claim either (`payable`): its COMMIT was
    // already sent behind it (writeCardIntent `last`).
    expect(
      await db.query('select token_hash from payments.checkout_submissions where token_hash = $1', [
        'guards-token-1',
      ]),
    ).toEqual([]);
    // Once the merchant is approved, the same form pays, once.
    await db.query(`update payments.merchants set onboarding_status = 'active' where id = $1`, [
      link.merchant_id,
    ]);
    const paid = await pay();
    expect(paid).toMatchObject({
      kind: 'charged',
      transaction: { status: 'succeeded', merchant_id: link.merchant_id },
    });
    const again = await pay();
    expect(again).toEqual(paid);
    expect(await links.get(live, link.id)).toMatchObject({ completions_count: 1, status: 'active' });
  });

  it('a charge to an unknown merchant is 404 and writes nothing; in test mode a merchant not yet active is paid', async () => {
    const { db, services } = ctx();
    const { transactions } = services(new SandboxConnector());
    const other = { account: 'acct_guards02', livemode: false };
    await expect(
      transactions.chargeCard(other, { amount: 700n, currency: 'USD', card, merchant: 'mer_doesnotexist00' }),
    ).rejects.toMatchObject({ status: 404 });
    expect(
      await db.query('select id from payments.transactions where account_id = $1', [other.account]),
    ).toEqual([]);
    await db.query(
      `insert into payments.merchants (id, account_id, livemode, business_name, onboarding_status, created_at, updated_at)
       values ('mer_guardspending', $1, false, 'Pending Ltd', 'pending', now(), now())`,
      [other.account],
    );
    const paid = await transactions.chargeCard(other, {
      amount: 700n,
      currency: 'USD',
      card,
      merchant: 'mer_guardspending',
    });
    expect(paid).toMatchObject({ status: 'succeeded', merchant_id: 'mer_guardspending' });
  });

  it("an account's first test payment creates its default merchant and pays it; the next one pays the same", async () => {
    const { db, services } = ctx();
    const { transactions } = services(new SandboxConnector());
    const fresh = { account: 'acct_guards03', livemode: false };
    const first = await transactions.chargeCard(fresh, {
      amount: 300n,
      currency: 'USD',
      card,
      account_name: 'Fresh',
    });
    const merchants = await db.query<{ id: string; business_name: string }>(
      'select id, business_name from payments.merchants where account_id = $1 and is_default',
      [fresh.account],
    );
    expect(merchants).toEqual([{ id: expect.stringMatching(/^mer_/), business_name: 'Fresh' }]);
    expect(first).toMatchObject({ status: 'succeeded', merchant_id: merchants[0].id });
    const second = await transactions.chargeCard(fresh, {
      amount: 300n,
      currency: 'USD',
      card,
      account_name: 'Fresh',
    });
    expect(second.merchant_id).toBe(merchants[0].id);
  });

  it("tx2 moves an intent only when the caller's claim, in the same statement, returned a row", async () => {
    const { db, embedded, eventsOf } = ctx();
    const saga = new IntentSaga(db, embedded.services.payments.runtime.clock);
    const intent = await db.transaction((tx) =>
      insertPaymentIntent(
        tx,
        tenant,
        { amount: 500n, currency: 'USD', merchant: null, payment_method: null },
        new Date(),
      ),
    );
    const record = (claimed: boolean) =>
      db.transaction((tx) =>
        saga.record(
          tx,
          intent.id,
          { status: 'succeeded', processor_reference: `sbx_${intent.id}` },
          { claim: () => ({ sql: `select 1 where $1::boolean`, params: [claimed] }) },
        ),
      );
    expect(await record(false)).toMatchObject({ id: intent.id, status: 'pending' });
    const legs = () =>
      db.query('select ledger_account from payments.ledger_entries where transaction_id = $1', [intent.id]);
    expect(await legs()).toEqual([]);
    expect(await eventsOf(intent.id)).toEqual([]);
    expect(await record(true)).toMatchObject({ id: intent.id, status: 'succeeded' });
    expect(await legs()).toHaveLength(2);
    expect(await eventsOf(intent.id)).toEqual(['payment.succeeded']);
  });
}
