// The feed subscribes to PAYMENTS_FEED_TYPES alone (payments-feed.consumer.ts); a type left out
// is acknowledged without its handler. Leaving a type out is only safe if the handler would
// have done nothing with it: checked here for every type of the topic, both ways.

import { PAYMENTS_EVENT_TYPES, type EventEnvelope } from '@paygrid/contracts';
import type { Tx } from '@paygrid/platform';
import type { InvoicesService } from '../invoices/invoices.service';
import type { ReceiptsService } from '../receipts/receipts.service';
import { handlePaymentsEvent, PAYMENTS_FEED_TYPES, type FeedObject } from './payments-feed';

/** What the handler did with one event of `type`: statements run and service calls made. */
async function effectsOf(type: string): Promise<string[]> {
  const effects: string[] = [];
  const tx = {
    schema: 'invoicing',
    query: async (sql: string) => {
      effects.push(sql.trim().split(/\s+/).slice(0, 3).join(' '));
      return [];
    },
    publish: () => effects.push('publish'),
  } as unknown as Tx;
  const record = (name: string) => async (): Promise<void> => {
    effects.push(name);
  };
  const invoices = { applyPaymentEvent: record('applyPaymentEvent') } as unknown as InvoicesService;
  const receipts = {
    issue: record('issue'),
    refunded: record('refunded'),
    refundReversed: record('refundReversed'),
  } as unknown as ReceiptsService;
  // An object that every branch of the handler would act on: a customer, an invoice, a card.
  const event = {
    id: `evt_${type}`,
    type,
    account: 'acct_1',
    livemode: false,
    created_at: '2026-12-03T12:00:00.000Z',
    data: {
      object: {
        id: 'obj_1',
        invoice: 'in_1',
        customer: 'cus_1',
        transaction: 'txn_1',
        amount: 1000,
        currency: 'eur',
        status: 'active',
        type: 'recurring',
        payment_method: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
        updated_at: '2026-12-03T12:00:00.000Z',
      },
    },
  } as unknown as EventEnvelope<FeedObject>;
  await handlePaymentsEvent(event, tx, invoices, receipts);
  return effects;
}

describe('PAYMENTS_FEED_TYPES', () => {
  const left = PAYMENTS_EVENT_TYPES.filter((type) => !PAYMENTS_FEED_TYPES.includes(type));

  it('leaves out payment links, disputes, onboarding and the account, and keeps the rest', () => {
    expect(left).toEqual([
      'payment_link.created',
      'payment_link.updated',
      'payment_link.completed',
      'payment_link.expired',
      'dispute.created',
      'dispute.updated',
      'dispute.closed',
      'merchant.onboarding.updated',
      'account.updated',
    ]);
  });

  it.each(left)('%s: the handler does nothing with it', async (type) => {
    expect(await effectsOf(type)).toEqual([]);
  });

  it.each([...PAYMENTS_FEED_TYPES])('%s: the handler acts on it', async (type) => {
    expect((await effectsOf(type)).length).toBeGreaterThan(0);
  });
});
