import { parseChargeMandate } from './mandates.service';

const valid = {
  id: 'cmd_0VbgZo4H000bPYOBw2ZigD4a',
  type: 'payment.charge_mandate',
  created_at: '2027-01-01T00:00:00Z',
  livemode: false,
  account: 'acct_abc12345',
  data: {
    mandate: 'mdt_abc12345',
    amount: 4200,
    currency: 'usd',
    invoice: 'inv_abc12345',
    customer: null,
    reference: 'inv_abc12345:1',
  },
};

describe('parseChargeMandate', () => {
  it('reads a payment.charge_mandate envelope, currency upper-cased and amount as bigint', () => {
    expect(parseChargeMandate(JSON.stringify(valid))).toEqual({
      message_id: valid.id,
      account: valid.account,
      livemode: false,
      mandate: 'mdt_abc12345',
      amount: 4200n,
      currency: 'USD',
      invoice: 'inv_abc12345',
      customer: null,
      reference: 'inv_abc12345:1',
    });
  });

  it.each([
    ['not JSON', '{'],
    ['no id', JSON.stringify({ ...valid, id: undefined })],
    ['another type', JSON.stringify({ ...valid, type: 'payment.refund' })],
    ['a float amount', JSON.stringify({ ...valid, data: { ...valid.data, amount: 10.5 } })],
    ['a string amount', JSON.stringify({ ...valid, data: { ...valid.data, amount: '4200' } })],
    ['a zero amount', JSON.stringify({ ...valid, data: { ...valid.data, amount: 0 } })],
    ['too large an amount', JSON.stringify({ ...valid, data: { ...valid.data, amount: 100_000_000_000 } })],
    ['no reference', JSON.stringify({ ...valid, data: { ...valid.data, reference: '' } })],
    ['a numeric customer', JSON.stringify({ ...valid, data: { ...valid.data, customer: 7 } })],
  ])('refuses %s', (_, raw) => {
    expect(parseChargeMandate(raw)).toHaveProperty('problem');
  });
});
