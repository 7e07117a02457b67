// Disputes from Stripe's webhooks: a dispute withdraws the amount and fee and holds the amount
// back from refunds (even five at once), a win puts it back, events out of order end in the
// right state once, and disputes are the account's and mode's own.

import { dispute, stripeId } from '../../support/stripe-events';
import type { WebhookHelpers, WebhooksContext } from './webhooks.helpers';

/** `hooks`: the test file's helpers, whose clock offset the earlier cases have moved. */
export function disputeCases(ctx: () => WebhooksContext, hooks: WebhookHelpers) {
  const { live, send, ledger, balance, paymentSettledByWebhook } = hooks;

  it('a dispute withdraws the amount and fee, holds the amount from refunds, and a win puts it back', async () => {
    const { platform, merchant } = ctx();
    const { id, pi } = await paymentSettledByWebhook(2500);
    const start = await balance();
    const du = stripeId('du');
    const created = await send('charge.dispute.created', dispute(du, pi, 2000, 'GBP', 1500));
    expect(created.body).toMatchObject({ outcome: 'dispute_created' });
    const list = await live('GET', `/v1/disputes?transaction=${id}`);
    expect(list.body.data).toHaveLength(1);
    const opened = list.body.data[0];
    expect(opened).toMatchObject({
      object: 'dispute',
      livemode: true,
      transaction: id,
      merchant,
      amount: 2000,
      fee: 1500,
      currency: 'GBP',
      status: 'needs_response',
      processor_reference: du,
    });
    expect((await live('GET', `/v1/disputes/${opened.id}`)).body).toEqual(opened);
    expect(await balance()).toBe(start - 3500);
    expect(await ledger()).toEqual([[], [], []]);

    // Only 500 is left to refund; five concurrent refunds of 300: exactly one fits.
    expect((await live('GET', `/v1/transactions/${id}`)).body.refundable_amount).toBe(500);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => live('POST', '/v1/refunds', { transaction: id, amount: 300 })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422, 422, 422]);
    expect(
      answers.filter((a) => a.status === 422).every((a) => a.body.error.code === 'refund_exceeds_remaining'),
    ).toBe(true);

    const review = await send('charge.dispute.updated', dispute(du, pi, 2000, 'GBP', 1500));
    expect(review.body.outcome).toBe('dispute_unchanged');
    const underReview = await send('charge.dispute.updated', {
      ...dispute(du, pi, 2000, 'GBP', 1500),
      status: 'under_review',
    });
    expect(underReview.body.outcome).toBe('dispute_updated');
    const won = await send('charge.dispute.closed', dispute(du, pi, 2000, 'GBP', 1500, 1500, 'won'));
    expect(won.body.outcome).toBe('dispute_updated');
    expect((await live('GET', `/v1/disputes/${opened.id}`)).body).toMatchObject({
      status: 'won',
      fee_returned: 1500,
      closed_at: expect.any(String),
    });
    // Back: the amount and the returned fee; the one 300 refund stays out.
    expect(await balance()).toBe(start - 300);
    expect((await live('GET', `/v1/transactions/${id}`)).body.refundable_amount).toBe(2200);
    // A late "under_review" after the close changes nothing.
    const late = await send('charge.dispute.updated', {
      ...dispute(du, pi, 2000, 'GBP', 1500),
      status: 'under_review',
    });
    expect(late.body.outcome).toBe('dispute_unchanged');
    expect((await live('GET', `/v1/disputes/${opened.id}`)).body.status).toBe('won');
    expect(await ledger()).toEqual([[], [], []]);

    const types = await platform.sql<{ type: string }>(
      'payments',
      `select payload->>'type' as type from payments.outbox where payload->'data'->'object'->>'id' = $1 order by id`,
      [opened.id],
    );
    expect(types.map((t) => t.type)).toEqual(['dispute.created', 'dispute.updated', 'dispute.closed']);
  });

  it('out of order: a dispute closed (lost) before it was created ends lost, once, with the money out', async () => {
    const { id, pi } = await paymentSettledByWebhook(1800);
    const start = await balance();
    const du = stripeId('du');
    const lost = await send('charge.dispute.closed', dispute(du, pi, 1800, 'GBP', 1500, 0, 'lost'));
    expect(lost.body.outcome).toBe('dispute_created');
    const createdLate = await send('charge.dispute.created', dispute(du, pi, 1800, 'GBP', 1500));
    expect(createdLate.body.outcome).toBe('dispute_unchanged');
    const updatedLate = await send('charge.dispute.updated', {
      ...dispute(du, pi, 1800, 'GBP', 1500),
      status: 'under_review',
    });
    expect(updatedLate.body.outcome).toBe('dispute_unchanged');
    const all = (await live('GET', `/v1/disputes?transaction=${id}`)).body.data;
    expect(all.map((d: { status: string }) => d.status)).toEqual(['lost']);
    expect(
      (await live('GET', '/v1/disputes?status=lost')).body.data.map((d: { id: string }) => d.id),
    ).toContain(all[0].id);
    expect(
      (await live('GET', '/v1/disputes?status=won')).body.data.map((d: { id: string }) => d.id),
    ).not.toContain(all[0].id);
    expect(await balance()).toBe(start - 3300);
    const refused = await live('POST', '/v1/refunds', { transaction: id, amount: 1 });
    expect([refused.status, refused.body.error.code]).toEqual([422, 'refund_exceeds_remaining']);
    expect(await ledger()).toEqual([[], [], []]);

    // A dispute of a payment we have not recorded: refused for now (Stripe delivers it again).
    const unknown = await send('charge.dispute.created', dispute(stripeId('du'), stripeId('pi'), 100, 'GBP'));
    expect([unknown.status, unknown.body.error.code]).toEqual([409, 'resource_busy']);
  });

  it("disputes are the account's and mode's own, and need disputes:read", async () => {
    const { platform, account } = ctx();
    const listed = await live('GET', '/v1/disputes?limit=1');
    expect(listed.status).toBe(200);
    const [one] = listed.body.data;
    const other = await platform.newAccount(['payments']);
    const foreign = await platform.api(other.liveKey, 'GET', `/v1/disputes/${one.id}`);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'resource_missing']);
    expect((await platform.api(account.testKey, 'GET', `/v1/disputes/${one.id}`)).status).toBe(404);
    expect((await platform.api(account.testKey, 'GET', '/v1/disputes')).body.data).toEqual([]);
    const bad = await live('GET', '/v1/disputes?status=open');
    expect([bad.status, bad.body.error.code]).toEqual([400, 'parameter_invalid']);
  });
}
