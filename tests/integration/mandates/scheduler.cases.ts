// A recurring link's hosted checkout creates the mandate with the first charge; the scheduler
// charges each cycle once when the payments test clock moves, retries a failing card (0341)
// until the mandate fails, and stops at a cancel; the ledger stays balanced throughout.

import { ledgerImbalances, postingMismatches } from '../../../apps/payments/src/ledger/ledger';
import { cycleDate } from '../../../apps/payments/src/mandates/cycle';
import { CARDS, payPage } from '../../support/pages';
import { DAY_MS, eventually } from '../../support/platform';
import { mandateHelpers, type MandatesContext } from './mandates.helpers';

export function schedulerCases(ctx: () => MandatesContext) {
  const { get, recurringLink, subscribe, paymentsOfMandate, eventTypesOf } = mandateHelpers(ctx);

  describe('recurring checkout and the scheduler', () => {
    it('creates the mandate with the first charge, then charges each cycle once when the clock moves', async () => {
      const { platform } = ctx();
      const { link, payment, mandate } = await subscribe();
      expect(mandate).toMatchObject({
        object: 'mandate',
        status: 'active',
        type: 'recurring',
        payment_link: link.id,
        merchant: link.merchant,
        client_reference_id: 'order-42',
        metadata: { plan: 'pro' },
        payer: { name: 'Ada Lovelace', email: 'ada@example.test' },
        payment_method: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099 },
        amount: 1500,
        currency: 'EUR',
        interval: 'month',
        interval_count: 1,
      });
      expect(mandate.next_charge_at).toBe(
        cycleDate(new Date(mandate.created_at), 'month', 1, 1).toISOString(),
      );
      expect(payment).toMatchObject({ client_reference_id: 'order-42', metadata: { plan: 'pro' } });
      expect(JSON.stringify(await platform.sql('payments', 'select * from payments.mandates'))).not.toContain(
        '4242424242424242',
      );

      // Not due yet: nothing happens.
      const early = await platform.advancePaymentsClock(DAY_MS);
      expect(await paymentsOfMandate(mandate.id)).toHaveLength(1);
      expect(early.ran.mandate_charges).toBe(0);

      // One interval later (from the anchor): cycle 1 is charged, once.
      await platform.advancePaymentsClock(31 * DAY_MS);
      const charges = await paymentsOfMandate(mandate.id);
      expect(charges.map((c) => c.status)).toEqual(['succeeded', 'succeeded']);
      await platform.advancePaymentsClock(0);
      expect(await paymentsOfMandate(mandate.id)).toHaveLength(2);
      const second = await get(`/v1/transactions/${charges[1].id}`);
      expect(second).toMatchObject({
        type: 'payment',
        amount: 1500,
        mandate: mandate.id,
        payment_link: link.id,
        client_reference_id: 'order-42',
        metadata: { plan: 'pro' },
        payment_method: { last4: '4242' },
      });
      const after = await get(`/v1/mandates/${mandate.id}`);
      expect(after.next_charge_at).toBe(cycleDate(new Date(mandate.created_at), 'month', 1, 2).toISOString());
      await eventually(async () => {
        const types = await eventTypesOf(mandate.id);
        return types.includes('mandate.created') ? true : undefined;
      });
      await eventually(async () =>
        (await eventTypesOf(charges[1].id)).includes('payment.succeeded') ? true : undefined,
      );
    });

    it('retries a failing cycle, then fails the mandate (card 4000 0000 0000 0341)', async () => {
      const { platform, account } = ctx();
      const { mandate } = await subscribe(CARDS.laterFails);
      expect(mandate.payment_method.last4).toBe('0341');
      const anchor = new Date(mandate.created_at);
      const { now } = await platform.advancePaymentsClock(32 * DAY_MS);
      expect(now.getTime()).toBeGreaterThanOrEqual(cycleDate(anchor, 'month', 1, 1).getTime());

      const attempt1 = await paymentsOfMandate(mandate.id);
      expect(attempt1.map((c) => [c.status, c.failure_code])).toEqual([
        ['succeeded', null],
        ['failed', 'card_declined'],
      ]);
      const retrying = await get(`/v1/mandates/${mandate.id}`);
      expect(retrying).toMatchObject({ status: 'active', failure_code: 'card_declined' });
      expect(new Date(retrying.next_charge_at).getTime()).toBe(
        new Date(retrying.updated_at).getTime() + DAY_MS,
      );

      await platform.advancePaymentsClock(DAY_MS + 1000);
      expect(await paymentsOfMandate(mandate.id)).toHaveLength(3);
      expect((await get(`/v1/mandates/${mandate.id}`)).status).toBe('active');
      await platform.advancePaymentsClock(3 * DAY_MS + 1000);
      const all = await paymentsOfMandate(mandate.id);
      expect(all.map((c) => c.status)).toEqual(['succeeded', 'failed', 'failed', 'failed']);
      const failed = await get(`/v1/mandates/${mandate.id}`);
      expect(failed).toMatchObject({ status: 'failed', next_charge_at: null, failure_code: 'card_declined' });

      // Failed for good: no further charge, and it cannot be canceled.
      await platform.advancePaymentsClock(40 * DAY_MS);
      expect(await paymentsOfMandate(mandate.id)).toHaveLength(4);
      const cancel = await platform.api(account.testKey, 'POST', `/v1/mandates/${mandate.id}/cancel`, {});
      expect(cancel.status).toBe(409);
      expect(cancel.body.error.code).toBe('invalid_state_transition');
      await eventually(async () => {
        const types = await eventTypesOf(mandate.id);
        return types.includes('mandate.failed') ? types : undefined;
      });
      await eventually(async () =>
        (await eventTypesOf(all[1].id)).includes('payment.failed') ? true : undefined,
      );
    });

    it('the sandbox test helper runs the next attempt now, through the retries to mandate.failed (0341)', async () => {
      const { platform, account } = ctx();
      const { mandate } = await subscribe(CARDS.laterFails);
      const helper = (id: string, key = account.testKey, body: unknown = {}) =>
        platform.api(key, 'POST', `/v1/mandates/${id}/test-helpers/charge`, body);
      // Another account, live mode and a key without mandates:write cannot use it.
      const other = await platform.newAccount(['payments']);
      for (const key of [other.testKey, account.liveKey]) {
        const refused = await helper(mandate.id, key);
        expect({ status: refused.status, code: refused.body.error.code }).toEqual({
          status: 404,
          code: 'resource_missing',
        });
      }
      const readOnly = await platform.admin('POST', `/admin/v1/accounts/${account.id}/keys`, {
        mode: 'test',
        kind: 'restricted',
        scopes: ['mandates:read'],
      });
      expect((await helper(mandate.id, readOnly.body.secret)).status).toBe(403);
      expect(await paymentsOfMandate(mandate.id)).toHaveLength(1);

      const first = await helper(mandate.id);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ id: mandate.id, status: 'active', failure_code: 'card_declined' });
      // The retry is scheduled as the failure policy says: a day after the failed attempt.
      expect(new Date(first.body.next_charge_at).getTime()).toBe(
        new Date(first.body.updated_at).getTime() + DAY_MS,
      );
      expect((await helper(mandate.id)).body.status).toBe('active');
      const last = await helper(mandate.id);
      expect(last.body).toMatchObject({
        status: 'failed',
        next_charge_at: null,
        failure_code: 'card_declined',
      });
      const charges = await paymentsOfMandate(mandate.id);
      expect(charges.map((c) => [c.status, c.failure_code])).toEqual([
        ['succeeded', null],
        ['failed', 'card_declined'],
        ['failed', 'card_declined'],
        ['failed', 'card_declined'],
      ]);
      // Failed for good: the helper refuses it, as it refuses an on_demand mandate (no schedule).
      const after = await helper(mandate.id);
      expect({ status: after.status, code: after.body.error.code }).toEqual({
        status: 409,
        code: 'invalid_state_transition',
      });
      await eventually(async () =>
        (await eventTypesOf(mandate.id)).includes('mandate.failed') ? true : undefined,
      );
      const saved = await platform.api(account.testKey, 'POST', '/v1/transactions/test-helpers/payments', {
        amount: 1000,
        currency: 'USD',
        card_number: CARDS.ok,
        save_card: true,
      });
      const onDemand = await helper(String(saved.body.mandate));
      expect({ status: onDemand.status, code: onDemand.body.error.code }).toEqual({
        status: 409,
        code: 'invalid_state_transition',
      });
    });

    it('creates no mandate when the first charge is declined', async () => {
      const { platform } = ctx();
      const link = await recurringLink();
      const answer = await payPage(platform, `/pay/${link.id}`, CARDS.insufficientFunds);
      expect(answer.status).toBe(402);
      expect(String(answer.body)).toContain('insufficient funds');
      const [payment] = (await get(`/v1/transactions?payment_link=${link.id}`)).data;
      expect(payment).toMatchObject({ status: 'failed', failure_code: 'insufficient_funds', mandate: null });
      const mandates = await platform.sql(
        'payments',
        'select id from payments.mandates where payment_link = $1',
        [link.id],
      );
      expect(mandates).toHaveLength(0);
    });

    it('stops charging a canceled mandate; other accounts and modes see 404', async () => {
      const { platform, account } = ctx();
      const { mandate } = await subscribe();
      const canceled = await platform.api(account.testKey, 'POST', `/v1/mandates/${mandate.id}/cancel`, {});
      expect(canceled.status).toBe(200);
      expect(canceled.body).toMatchObject({ status: 'canceled', next_charge_at: null });
      expect(canceled.body.canceled_at).not.toBeNull();
      const again = await platform.api(account.testKey, 'POST', `/v1/mandates/${mandate.id}/cancel`, {});
      expect(again.body).toEqual(canceled.body);
      await platform.advancePaymentsClock(40 * DAY_MS);
      expect(await paymentsOfMandate(mandate.id)).toHaveLength(1);

      const other = await platform.newAccount(['payments']);
      for (const key of [other.testKey, account.liveKey]) {
        expect((await platform.api(key, 'GET', `/v1/mandates/${mandate.id}`)).status).toBe(404);
        expect((await platform.api(key, 'POST', `/v1/mandates/${mandate.id}/cancel`, {})).status).toBe(404);
      }
      const listed = await get('/v1/mandates?limit=100');
      expect(listed.data.map((m: any) => m.id)).toContain(mandate.id);
      expect(
        await eventually(async () =>
          (await eventTypesOf(mandate.id)).includes('mandate.canceled') ? true : undefined,
        ),
      ).toBe(true);
    });

    it('keeps the ledger balanced', async () => {
      const { platform } = ctx();
      const db = {
        query: <T>(text: string, params?: unknown[]) => platform.sql<T>('payments', text, params),
      };
      expect(await ledgerImbalances(db)).toEqual([]);
      expect(await postingMismatches(db)).toEqual([]);
    });
  });
}
