// Test clocks and the billing engine, end to end through the gateway, in whichever mode the
// project runs: a monthly subscription anchored on Jan 31 with a 14-day trial, advanced 13
// months, bills exactly the invoices listed below; a card that fails later walks through
// dunning to past_due and the configured end state, every event in /v1/events.

import { allEvents } from '../support/events';
import { eventually, usePlatform } from '../support/platform';
import { advanceInSteps } from '../support/test-clocks';

const suite = usePlatform();
const { api } = suite;

async function clockedCustomer(frozenTime: string, extra: Record<string, unknown> = {}) {
  const clock = await api('POST', '/v1/test-clocks', { frozen_time: frozenTime, name: 'scenario' });
  expect(clock.status).toBe(200);
  expect(clock.body).toMatchObject({
    object: 'test_clock',
    status: 'ready',
    frozen_time: new Date(frozenTime).toISOString(),
  });
  const customer = await api('POST', '/v1/customers', {
    name: 'Clocked Ltd',
    email: 'billing@clocked.test',
    currency: 'USD',
    test_clock: clock.body.id,
    ...extra,
  });
  expect(customer.status).toBe(200);
  expect(customer.body.test_clock).toBe(clock.body.id);
  return { clock: clock.body.id as string, customer: customer.body.id as string };
}

/** Every event of the account (newest first from the API), oldest first, filtered. */
async function events(filter: (e: any) => boolean, count: number): Promise<any[]> {
  return eventually(
    async () => {
      const mine = (await allEvents(suite.platform, suite.account.testKey)).filter(filter);
      return mine.length >= count ? mine : undefined;
    },
    30_000,
    200,
  );
}

async function invoicesOf(subscription: string): Promise<any[]> {
  const list = await api('GET', `/v1/invoices?subscription=${subscription}&limit=100`);
  expect(list.status).toBe(200);
  return [...list.body.data].sort((a: any, b: any) => a.period_start.localeCompare(b.period_start));
}

describe('test clocks', () => {
  it('are sandbox only: a live key cannot create one and sees none', async () => {
    const live = await suite.platform.api(suite.account.liveKey, 'POST', '/v1/test-clocks', {
      frozen_time: '2028-01-01T00:00:00Z',
    });
    expect(live.status).toBe(400);
    expect(live.body.error.code).toBe('test_mode_only');
    const { clock } = await clockedCustomer('2028-01-01T00:00:00Z');
    const seen = await suite.platform.api(suite.account.liveKey, 'GET', `/v1/test-clocks/${clock}`);
    expect(seen.status).toBe(404);
    const customer = await suite.platform.api(suite.account.liveKey, 'POST', '/v1/customers', {
      name: 'x',
      test_clock: clock,
    });
    expect(customer.status).toBe(404);
    expect(customer.body.error.param).toBe('test_clock');
  });

  it('moves forward only, and refuses a malformed time', async () => {
    const { clock } = await clockedCustomer('2028-01-01T00:00:00Z');
    const back = await api('POST', `/v1/test-clocks/${clock}/advance`, {
      frozen_time: '2027-12-31T00:00:00Z',
    });
    expect(back.status).toBe(400);
    expect(back.body.error).toMatchObject({ code: 'parameter_invalid', param: 'frozen_time' });
    const bad = await api('POST', `/v1/test-clocks/${clock}/advance`, { frozen_time: 'tomorrow' });
    expect(bad.status).toBe(400);
    const same = await api('GET', `/v1/test-clocks/${clock}`);
    expect(same.body.frozen_time).toBe('2028-01-01T00:00:00.000Z');
  });

  it('bills a Jan 31 monthly subscription with a 14-day trial over 13 months: exactly these invoices', async () => {
    const { clock, customer } = await clockedCustomer('2028-01-31T00:00:00Z');
    const created = await api('POST', '/v1/subscriptions', {
      customer,
      items: [
        {
          description: 'Pro plan',
          unit_amount: 1000,
          currency: 'usd',
          quantity: 1,
          interval: 'month',
          interval_count: 1,
        },
      ],
      billing_cycle_anchor: '2028-01-31T00:00:00Z',
      trial_period_days: 14,
      collection_method: 'send_invoice',
      days_until_due: 30,
    });
    expect(created.status).toBe(200);
    const sub = created.body;
    expect(sub).toMatchObject({
      object: 'subscription',
      status: 'trialing',
      test_clock: clock,
      trial_start: '2028-01-31T00:00:00.000Z',
      trial_end: '2028-02-14T00:00:00.000Z',
      billing_cycle_anchor: '2028-01-31T00:00:00.000Z',
      latest_invoice: null,
    });

    // More than two monthly intervals: refused in one advance, taken in several.
    const tooFar = await api('POST', `/v1/test-clocks/${clock}/advance`, {
      frozen_time: '2029-02-28T00:00:00Z',
    });
    expect([tooFar.status, tooFar.body.error.code, tooFar.body.error.param]).toEqual([
      400,
      'parameter_invalid',
      'frozen_time',
    ]);
    expect(tooFar.body.error.message).toContain('at most to 2028-03-31T00:00:00.000Z');
    const advanced = await advanceInSteps(api, clock, '2029-02-28T00:00:00Z');
    expect(advanced.status).toBe(200);
    expect(advanced.body).toMatchObject({ status: 'ready', frozen_time: '2029-02-28T00:00:00.000Z' });

    // Periods from the anchor, clamped to month ends (2028 is a leap year); the trial ends
    // inside period 0, so its rest (Feb 14 -> Feb 29: 15 of 29 days) is billed pro rata:
    // 1000 x 15 / 29 = 517.24 -> 517.
    const expected = [
      ['2028-02-14', '2028-02-29', 517],
      ['2028-02-29', '2028-03-31', 1000],
      ['2028-03-31', '2028-04-30', 1000],
      ['2028-04-30', '2028-05-31', 1000],
      ['2028-05-31', '2028-06-30', 1000],
      ['2028-06-30', '2028-07-31', 1000],
      ['2028-07-31', '2028-08-31', 1000],
      ['2028-08-31', '2028-09-30', 1000],
      ['2028-09-30', '2028-10-31', 1000],
      ['2028-10-31', '2028-11-30', 1000],
      ['2028-11-30', '2028-12-31', 1000],
      ['2028-12-31', '2029-01-31', 1000],
      ['2029-01-31', '2029-02-28', 1000],
      ['2029-02-28', '2029-03-31', 1000],
    ];
    const invoices = await invoicesOf(sub.id);
    expect(invoices.map((i) => [i.period_start.slice(0, 10), i.period_end.slice(0, 10), i.total])).toEqual(
      expected,
    );
    for (const invoice of invoices) {
      expect(invoice).toMatchObject({
        subscription: sub.id,
        customer,
        currency: 'USD',
        status: 'open',
        amount_due: invoice.total,
      });
      expect(invoice.period_start.slice(11)).toBe('00:00:00.000Z');
    }
    // Created at the clock's time, each at its period start.
    expect(invoices.map((i) => i.created_at)).toEqual(invoices.map((i) => i.period_start));

    const now = await api('GET', `/v1/subscriptions/${sub.id}`);
    expect(now.body).toMatchObject({
      status: 'active',
      current_period_start: '2029-02-28T00:00:00.000Z',
      current_period_end: '2029-03-31T00:00:00.000Z',
      latest_invoice: invoices[invoices.length - 1].id,
    });

    // The ledger: each period once, in order.
    const ledger = await suite.platform.sql(
      'invoicing',
      'select period_index, count(*)::int as n from invoicing.subscription_periods where subscription_id = $1 group by period_index order by period_index',
      [sub.id],
    );
    expect(ledger).toEqual(Array.from({ length: 14 }, (_, i) => ({ period_index: i, n: 1 })));

    const subEvents = await events(
      (e) => e.type.startsWith('subscription.') && e.data.object.id === sub.id,
      16,
    );
    expect(subEvents.map((e) => e.type)).toEqual([
      'subscription.created',
      'subscription.trial_will_end',
      'subscription.updated',
      ...Array(13).fill('subscription.renewed'),
    ]);
    expect(subEvents[1].created_at).toBe('2028-02-11T00:00:00.000Z');
    expect(subEvents[2]).toMatchObject({
      created_at: '2028-02-14T00:00:00.000Z',
      data: { previous_attributes: { status: 'trialing' } },
    });
    const finalized = await events(
      (e) => e.type === 'invoice.finalized' && e.data.object.subscription === sub.id,
      14,
    );
    expect(finalized).toHaveLength(14);

    // Advancing again does not bill a period twice.
    const again = await api('POST', `/v1/test-clocks/${clock}/advance`, {
      frozen_time: '2029-03-01T00:00:00Z',
    });
    expect(again.status).toBe(200);
    expect(await invoicesOf(sub.id)).toHaveLength(14);
  });

  it('prorates a mid-period upgrade exactly as previewed (always_invoice)', async () => {
    const { clock, customer } = await clockedCustomer('2028-03-01T00:00:00Z');
    const created = await api('POST', '/v1/subscriptions', {
      customer,
      items: [{ description: 'Seat', unit_amount: 3100, currency: 'USD', quantity: 1, interval: 'month' }],
      collection_method: 'send_invoice',
    });
    expect(created.status).toBe(200);
    expect(created.body.status).toBe('active');
    await api('POST', `/v1/test-clocks/${clock}/advance`, { frozen_time: '2028-03-11T00:00:00Z' });
    const change = {
      items: [{ description: 'Seat', unit_amount: 3100, currency: 'USD', quantity: 3, interval: 'month' }],
      proration_behavior: 'always_invoice',
    };
    const preview = await api('POST', `/v1/subscriptions/${created.body.id}/preview`, change);
    expect(preview.status).toBe(200);
    // 31-day period, 21 days left: credit 3100 x 21/31 = 2100, charge 9300 x 21/31 = 6300.
    expect(preview.body.proration_lines.map((l: any) => l.amount)).toEqual([-2100, 6300]);
    expect(preview.body.invoice_now).toMatchObject({
      subtotal: 6300,
      discount: 2100,
      total: 4200,
      credit_left: 0,
    });
    const updated = await api('POST', `/v1/subscriptions/${created.body.id}`, {
      ...change,
      proration_date: preview.body.proration_date,
    });
    expect(updated.status).toBe(200);
    const invoice = await api('GET', `/v1/invoices/${updated.body.latest_invoice}`);
    expect(invoice.body).toMatchObject({ subtotal: 6300, discount_total: 2100, total: 4200 });
    expect(invoice.body.lines.map((l: any) => [l.description, l.amount])).toEqual(
      preview.body.invoice_now.lines.map((l: any) => [l.description, l.unit_amount * l.quantity]),
    );
    // The next renewal bills the new quantity in full.
    expect(preview.body.next_invoice).toMatchObject({
      period_start: '2028-04-01T00:00:00.000Z',
      total: 9300,
    });
  });

  it("expires the quotes of the clock's customers at the clock's time, not the real one", async () => {
    const { clock, customer } = await clockedCustomer('2028-01-01T00:00:00Z');
    const other = await clockedCustomer('2028-01-01T00:00:00Z');
    const sentQuote = async (owner: string, expiresAt: string) => {
      const draft = await api('POST', '/v1/estimates', {
        kind: 'quote',
        customer: owner,
        lines: [{ description: 'Audit', quantity: 1, unit_amount: 50_000 }],
        expires_at: expiresAt,
      });
      expect(draft.status).toBe(200);
      const sent = await api('POST', `/v1/estimates/${draft.body.id}/send`);
      expect(sent.status).toBe(200);
      expect(sent.body.status).toBe('sent');
      return sent.body.id as string;
    };
    // expires_at must be after the clock's time (2027 is after the real time, not the clock's).
    const past = await api('POST', '/v1/estimates', {
      kind: 'quote',
      customer,
      lines: [{ description: 'Audit', quantity: 1, unit_amount: 50_000 }],
      expires_at: '2027-06-01T00:00:00Z',
    });
    expect(past.status).toBe(400);
    expect(past.body.error).toMatchObject({ code: 'parameter_invalid', param: 'expires_at' });
    const soon = await sentQuote(customer, '2028-01-10T12:00:00Z');
    const later = await sentQuote(customer, '2028-03-01T00:00:00Z');
    const elsewhere = await sentQuote(other.customer, '2028-01-05T00:00:00Z');

    const advanced = await api('POST', `/v1/test-clocks/${clock}/advance`, {
      frozen_time: '2028-02-01T00:00:00Z',
    });
    expect(advanced.status).toBe(200);
    expect(advanced.body).toMatchObject({ status: 'ready', frozen_time: '2028-02-01T00:00:00.000Z' });

    const status = async (id: string) => (await api('GET', `/v1/estimates/${id}`)).body;
    // Expired at the step of its expires_at, on the clock's time.
    expect(await status(soon)).toMatchObject({
      status: 'expired',
      status_transitions: { expired_at: '2028-01-10T12:00:00.000Z' },
    });
    expect((await status(later)).status).toBe('sent');
    // Another clock's customer is on that clock's time, which did not move.
    expect((await status(elsewhere)).status).toBe('sent');
    const expired = await events((e) => e.type === 'estimate.expired' && e.data.object.id === soon, 1);
    expect(expired.map((e) => e.created_at)).toEqual(['2028-01-10T12:00:00.000Z']);
    const refused = await api('POST', `/v1/estimates/${soon}/accept`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('invalid_state_transition');

    // The other clock's advance expires its own quote, once, at its time.
    await api('POST', `/v1/test-clocks/${other.clock}/advance`, { frozen_time: '2028-01-06T00:00:00Z' });
    expect(await status(elsewhere)).toMatchObject({
      status: 'expired',
      status_transitions: { expired_at: '2028-01-05T00:00:00.000Z' },
    });
    await api('POST', `/v1/test-clocks/${clock}/advance`, { frozen_time: '2028-03-02T00:00:00Z' });
    expect(await status(later)).toMatchObject({
      status: 'expired',
      status_transitions: { expired_at: '2028-03-01T00:00:00.000Z' },
    });
    const all = await events(
      (e) => e.type === 'estimate.expired' && [soon, later, elsewhere].includes(e.data.object.id),
      3,
    );
    // Once each, at its own clock's time.
    const byId = (a: string[], b: string[]) => a[0].localeCompare(b[0]);
    expect(all.map((e) => [e.data.object.id, e.created_at]).sort(byId)).toEqual(
      [
        [soon, '2028-01-10T12:00:00.000Z'],
        [elsewhere, '2028-01-05T00:00:00.000Z'],
        [later, '2028-03-01T00:00:00.000Z'],
      ].sort(byId),
    );
  });

  it('refuses items of different cycles or currencies, and unknown customers', async () => {
    const { customer } = await clockedCustomer('2028-01-01T00:00:00Z');
    const mixed = await api('POST', '/v1/subscriptions', {
      customer,
      items: [
        { description: 'A', unit_amount: 100, currency: 'USD', interval: 'month' },
        { description: 'B', unit_amount: 100, currency: 'USD', interval: 'year' },
      ],
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error).toMatchObject({ code: 'parameter_invalid', param: 'items[1].interval' });
    const missing = await api('POST', '/v1/subscriptions', {
      customer: 'cus_00000000nosuchone',
      items: [{ description: 'A', unit_amount: 100, currency: 'USD', interval: 'month' }],
    });
    expect(missing.status).toBe(404);
  });
});

it('refuses a frozen_time past year 9999 (no answer can carry it as RFC 3339)', async () => {
  for (const frozen_time of [3_176_000_000_000, '+102637-01-01T00:00:00Z', -1]) {
    const created = await api('POST', '/v1/test-clocks', { frozen_time });
    expect([created.status, created.body.error?.code, created.body.error?.param]).toEqual([
      400,
      'parameter_invalid',
      'frozen_time',
    ]);
  }
  // name is a string when given: null is refused like any other wrong type (Schemathesis found it).
  const nullName = await api('POST', '/v1/test-clocks', { frozen_time: '2030-01-01T00:00:00Z', name: null });
  expect([nullName.status, nullName.body.error?.param]).toEqual([400, 'name']);
  const clock = await api('POST', '/v1/test-clocks', { frozen_time: '2030-01-01T00:00:00Z' });
  const far = await api('POST', `/v1/test-clocks/${clock.body.id}/advance`, {
    frozen_time: 3_176_000_000_000,
  });
  expect([far.status, far.body.error?.param]).toEqual([400, 'frozen_time']);
  // Without a subscription an advance may move two years at most.
  const years = await api('POST', `/v1/test-clocks/${clock.body.id}/advance`, {
    frozen_time: '2032-01-02T00:00:00Z',
  });
  expect([years.status, years.body.error?.param]).toEqual([400, 'frozen_time']);
  expect(years.body.error.message).toContain('at most to 2032-01-01T00:00:00.000Z');
});
