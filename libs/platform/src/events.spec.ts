import { TOPICS } from '@paygrid/contracts';
import type { OutboxMessage, Tx } from './db/database';
import { emitRowEvent } from './events';

// The outbox write itself is the Database's (tested by the outbox suites); this checks what
// emitRowEvent puts in the envelope from the row.
describe('emitRowEvent', () => {
  const at = new Date('2026-03-04T05:06:07.089Z');
  const emitted = async (
    row: Parameters<typeof emitRowEvent>[2],
    event: Partial<Parameters<typeof emitRowEvent>[3]>,
  ) => {
    const messages: OutboxMessage[] = [];
    const tx = { publish: async (...m: OutboxMessage[]) => void messages.push(...m) } as unknown as Tx;
    const envelope = await emitRowEvent(tx, TOPICS.paymentsEvents, row, {
      type: 'refund.created',
      object: { id: 'ref_1' },
      at,
      ...event,
    });
    expect(messages).toEqual([
      { topic: TOPICS.paymentsEvents, key: row.account_id, id: envelope.id, payload: envelope },
    ]);
    return envelope;
  };

  it("takes the account, the mode and the row's merchant from the row", async () => {
    const event = await emitted({ account_id: 'acct_1', livemode: true, merchant_id: 'mer_1' }, {});
    expect(event).toMatchObject({
      account: 'acct_1',
      livemode: true,
      merchant: 'mer_1',
      created_at: at.toISOString(),
    });
    expect(event.data).toEqual({ object: { id: 'ref_1' } });
  });

  it('writes no merchant for a row without one, and lets the caller give or withhold it', async () => {
    expect(await emitted({ account_id: 'acct_1', livemode: false }, {})).not.toHaveProperty('merchant');
    expect(
      await emitted({ account_id: 'acct_1', livemode: false, merchant_id: null }, {}),
    ).not.toHaveProperty('merchant');
    expect(await emitted({ account_id: 'acct_1', livemode: false }, { merchant: 'mer_2' })).toMatchObject({
      merchant: 'mer_2',
    });
    expect(
      await emitted({ account_id: 'acct_1', livemode: false, merchant_id: 'mer_1' }, { merchant: null }),
    ).not.toHaveProperty('merchant');
  });

  it('carries previous_attributes only when given', async () => {
    const event = await emitted(
      { account_id: 'acct_1', livemode: false },
      { previous_attributes: { name: 'old' } },
    );
    expect(event.data).toEqual({ object: { id: 'ref_1' }, previous_attributes: { name: 'old' } });
    expect(
      (await emitted({ account_id: 'acct_1', livemode: false }, { previous_attributes: undefined })).data,
    ).toEqual({ object: { id: 'ref_1' } });
  });
});
