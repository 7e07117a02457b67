// The feed subscribes to PAYMENTS_FEED_TYPES alone (payments-feed.consumer.ts); a type left out
// is acknowledged without its handler. Leaving a type out is only safe if the handler would
// have done nothing with it: checked here for every type of the topic, both ways. And every
// payment and refund event's fact is written once, whether a receipt's statement carried it or
// the receipt had no statement to carry it (handlePaymentsEvent).

import { PAYMENTS_EVENT_TYPES, type EventEnvelope } from '@paygrid/contracts';
import type { SqlPart, Tx } from '@paygrid/platform';
import type { InvoicesService } from '../invoices/invoices.service';
import type { ReceiptsService } from '../receipts/receipts.service';
import { handlePaymentsEvent, PAYMENTS_FEED_TYPES, type FeedObject } from './payments-feed';

const FACT = 'insert into invoicing.payment_facts';

/**
 * What the handler did with one event of `type`: statements run and service calls made (a
 * receipt's statement that carried a riding write as `<call> carrying <its first words>`).
 * `receiptsSend`: whether the receipt methods send their statement (false: they return first,
 * as for a payment without an id).
 */
async function effectsOf(type: string, receiptsSend = true): Promise<string[]> {
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
  const receipt =
    (name: string) =>
    async (_tx: Tx, _event: unknown, riding?: SqlPart): Promise<boolean> => {
      effects.push(receiptsSend && riding ? `${name} carrying ${riding.sql.slice(0, FACT.length)}` : name);
      return receiptsSend;
    };
  const invoices = { applyPaymentEvent: record('applyPaymentEvent') } as unknown as InvoicesService;
  const receipts = {
    issue: receipt('issue'),
    refunded: receipt('refunded'),
    refundReversed: receipt('refundReversed'),
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

describe("a payment or refund event's fact", () => {
  const facts = (effects: string[]) => effects.filter((effect) => effect.endsWith(FACT)).length;

  it.each([...PAYMENTS_FEED_TYPES])(
    '%s: written once when the receipts send their statement',
    async (type) => {
      expect(facts(await effectsOf(type, true))).toBe(/^(payment|refund)\./.test(type) ? 1 : 0);
    },
  );

  it.each([...PAYMENTS_FEED_TYPES])('%s: written once when they return first', async (type) => {
    expect(facts(await effectsOf(type, false))).toBe(/^(payment|refund)\./.test(type) ? 1 : 0);
  });

  it("rides in the receipt's statement of payment.succeeded, refund.succeeded and refund.failed", async () => {
    expect(await effectsOf('payment.succeeded')).toContain(`issue carrying ${FACT}`);
    expect(await effectsOf('refund.succeeded')).toContain(`refunded carrying ${FACT}`);
    expect(await effectsOf('refund.failed')).toContain(`refundReversed carrying ${FACT}`);
  });
});
