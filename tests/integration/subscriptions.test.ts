// Subscriptions through the gateway in both modes (live keys have no test clocks, so the
// time-dependent parts run on a sandbox clock): creation, reads and filters, tenancy,
// cancel/pause/resume and their 409s, and proration that bills exactly what the preview
// showed, downgrades included (credit carried, never a negative line).

import { startPlatform, type Platform, type TestAccount } from '../support/platform';
import { advanceInSteps } from '../support/test-clocks';

let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  await platform?.stop();
});

const item = (unit_amount: number, quantity = 1) => ({
  description: 'Seat',
  unit_amount,
  currency: 'EUR',
  quantity,
  interval: 'month',
  interval_count: 1,
});

describe.each(['test', 'live'] as const)('subscriptions in %s mode', (mode) => {
  const key = () => (mode === 'test' ? account.testKey : account.liveKey);
  const api = (method: string, path: string, body?: unknown) => platform.api(key(), method, path, body);

  it('creates, reads, lists with filters, and cancels; other accounts and modes see 404', async () => {
    const customer = (await api('POST', '/v1/customers', { name: 'Subs Ltd', email: 'ap@subs.test' })).body;
    const created = await api('POST', '/v1/subscriptions', {
      customer: customer.id,
      items: [item(1500, 2)],
      collection_method: 'send_invoice',
      days_until_due: 14,
      metadata: { plan: 'team' },
    });
    expect(created.status).toBe(200);
    const sub = created.body;
    expect(sub).toMatchObject({
      object: 'subscription',
      livemode: mode === 'live',
      status: 'active',
      currency: 'EUR',
      interval: 'month',
      collection_method: 'send_invoice',
      days_until_due: 14,
      dunning_end_state: 'canceled',
      metadata: { plan: 'team' },
    });
    expect(sub.billing_cycle_anchor).toBe(sub.start_date);
    // The first period is billed at once: 2 x 1500, sent (send_invoice), due in 14 days.
    const invoice = (await api('GET', `/v1/invoices/${sub.latest_invoice}`)).body;
    expect(invoice).toMatchObject({
      subscription: sub.id,
      status: 'open',
      total: 3000,
      period_start: sub.current_period_start,
    });

    expect((await api('GET', `/v1/subscriptions/${sub.id}`)).body).toEqual(sub);
    const listed = await api('GET', `/v1/subscriptions?customer=${customer.id}&status=active`);
    expect(listed.body.data.map((s: any) => s.id)).toEqual([sub.id]);
    expect((await api('GET', `/v1/subscriptions?customer=${customer.id}&status=canceled`)).body.data).toEqual(
      [],
    );

    const other = await platform.newAccount(['invoicing']);
    expect((await platform.api(other.testKey, 'GET', `/v1/subscriptions/${sub.id}`)).status).toBe(404);
    const otherMode = mode === 'test' ? account.liveKey : account.testKey;
    expect((await platform.api(otherMode, 'POST', `/v1/subscriptions/${sub.id}/cancel`, {})).status).toBe(
      404,
    );

    const atEnd = await api('POST', `/v1/subscriptions/${sub.id}/cancel`, { at: 'period_end' });
    expect(atEnd.body).toMatchObject({ status: 'active', cancel_at_period_end: true });
    const now = await api('POST', `/v1/subscriptions/${sub.id}/cancel`, { at: 'now' });
    expect(now.body).toMatchObject({ status: 'canceled', next_action_at: null });
    expect(now.body.canceled_at).not.toBeNull();
    const again = await api('POST', `/v1/subscriptions/${sub.id}/pause`, {});
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state_transition');
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const customer = (await api('POST', '/v1/customers', { name: 'Bad Input' })).body;
    const cases: [unknown, string][] = [
      [{ customer: customer.id, items: [] }, 'parameter_invalid'],
      [{ customer: customer.id, items: [{ ...item(100), unit_amount: 1.5 }] }, 'parameter_invalid'],
      [{ customer: customer.id, items: [{ ...item(100), currency: 'usd' }, item(100)] }, 'parameter_invalid'],
      [{ customer: customer.id, items: [item(100)], time_zone: 'Mars/Olympus' }, 'parameter_invalid'],
      [{ customer: customer.id, items: [item(100)], trial_end: '2020-01-01T00:00:00Z' }, 'parameter_invalid'],
      [{ customer: customer.id, items: [item(100)], billing_cycle_anchor: 'soon' }, 'parameter_invalid'],
      [{ customer: customer.id, items: [item(100)], color: 'red' }, 'parameter_unknown'],
      [{ items: [item(100)] }, 'parameter_missing'],
    ];
    for (const [body, code] of cases) {
      const response = await api('POST', '/v1/subscriptions', body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(
        response.body.error.code === code ||
          (code === 'parameter_missing' && response.body.error.code === 'parameter_invalid'),
      ).toBe(true);
    }
    expect((await api('GET', `/v1/subscriptions?customer=${customer.id}`)).body.data).toEqual([]);
  });
});

describe('on a test clock', () => {
  const api = (method: string, path: string, body?: unknown) =>
    platform.api(account.testKey, method, path, body);

  async function onClock(frozenTime: string) {
    const clock = (await api('POST', '/v1/test-clocks', { frozen_time: frozenTime })).body;
    const customer = (
      await api('POST', '/v1/customers', { name: 'Clocked', email: 'c@clock.test', test_clock: clock.id })
    ).body;
    return { clock: clock.id as string, customer: customer.id as string };
  }
  const advance = (clock: string, to: string) => advanceInSteps(api, clock, to);
  const invoicesOf = async (sub: string) =>
    ((await api('GET', `/v1/invoices?subscription=${sub}&limit=100`)).body.data as any[]).reverse();

  it('a downgrade with create_prorations: credit on the next invoice exactly as previewed, the rest carried', async () => {
    const { clock, customer } = await onClock('2028-04-01T00:00:00Z');
    const sub = (
      await api('POST', '/v1/subscriptions', {
        customer,
        items: [item(3000, 3)],
        collection_method: 'send_invoice',
      })
    ).body;
    await advance(clock, '2028-04-16T00:00:00Z');
    // April has 30 days; 15 left. Credit 9000 x 15/30 = 4500, charge 1000 x 15/30 = 500.
    const change = { items: [item(1000, 1)] };
    const preview = (await api('POST', `/v1/subscriptions/${sub.id}/preview`, change)).body;
    expect(preview.proration_lines.map((l: any) => l.amount)).toEqual([-4500, 500]);
    expect(preview.invoice_now).toBeNull();
    // Next invoice (May): 1000 for the period + 500 remaining time, minus the 4500 credit
    // (at most the subtotal): 0 due, 3000 carried.
    expect(preview.next_invoice).toMatchObject({
      period_start: '2028-05-01T00:00:00.000Z',
      subtotal: 1500,
      discount: 1500,
      total: 0,
      credit_left: 3000,
    });
    const updated = await api('POST', `/v1/subscriptions/${sub.id}`, {
      ...change,
      proration_date: preview.proration_date,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.latest_invoice).toBe(sub.latest_invoice);

    await advance(clock, '2028-05-01T00:00:00Z');
    const may = (await invoicesOf(sub.id))[1];
    expect(may).toMatchObject({
      period_start: '2028-05-01T00:00:00.000Z',
      subtotal: 1500,
      discount_total: 1500,
      total: 0,
      status: 'paid',
    });
    expect(may.lines.map((l: any) => [l.description, l.amount])).toEqual(
      preview.next_invoice.lines.map((l: any) => [l.description, l.unit_amount * l.quantity]),
    );
    expect((await api('GET', `/v1/subscriptions/${sub.id}`)).body.pending_credit).toBe(3000);
    // June, July and August each take 1000 of the 3000 credit (0 due); September is billed in full.
    await advance(clock, '2028-09-01T00:00:00Z');
    expect((await invoicesOf(sub.id)).map((i) => [i.period_start.slice(0, 10), i.total])).toEqual([
      ['2028-04-01', 9000],
      ['2028-05-01', 0],
      ['2028-06-01', 0],
      ['2028-07-01', 0],
      ['2028-08-01', 0],
      ['2028-09-01', 1000],
    ]);
    expect((await api('GET', `/v1/subscriptions/${sub.id}`)).body.pending_credit).toBe(0);
  });

  it('pauses (periods pass unbilled), resumes, and cancels at period end; 409 on the wrong state', async () => {
    const { clock, customer } = await onClock('2028-01-10T00:00:00Z');
    const sub = (
      await api('POST', '/v1/subscriptions', {
        customer,
        items: [item(500)],
        collection_method: 'send_invoice',
      })
    ).body;
    expect((await api('POST', `/v1/subscriptions/${sub.id}/resume`, {})).status).toBe(409);
    expect((await api('POST', `/v1/subscriptions/${sub.id}/pause`, {})).body.status).toBe('paused');
    await advance(clock, '2028-03-15T00:00:00Z');
    expect(await invoicesOf(sub.id)).toHaveLength(1);
    const resumed = (await api('POST', `/v1/subscriptions/${sub.id}/resume`, {})).body;
    expect(resumed.status).toBe('active');
    await advance(clock, '2028-04-10T00:00:00Z');
    expect((await invoicesOf(sub.id)).map((i) => i.period_start.slice(0, 10))).toEqual([
      '2028-01-10',
      '2028-04-10',
    ]);
    const ledger = await platform.sql(
      'invoicing',
      'select period_index, outcome from invoicing.subscription_periods where subscription_id = $1 order by period_index',
      [sub.id],
    );
    expect(ledger).toEqual([
      { period_index: 0, outcome: 'invoiced' },
      { period_index: 1, outcome: 'paused' },
      { period_index: 2, outcome: 'paused' },
      { period_index: 3, outcome: 'invoiced' },
    ]);
    await api('POST', `/v1/subscriptions/${sub.id}/cancel`, { at: 'period_end' });
    await advance(clock, '2028-06-01T00:00:00Z');
    const ended = (await api('GET', `/v1/subscriptions/${sub.id}`)).body;
    expect(ended).toMatchObject({ status: 'canceled', ended_at: '2028-05-10T00:00:00.000Z' });
    expect(await invoicesOf(sub.id)).toHaveLength(2);
    const refused = await api('POST', `/v1/subscriptions/${sub.id}`, { items: [item(700)] });
    expect(refused.status).toBe(409);
  });

  it('rejects a proration_date outside the current period', async () => {
    const { customer } = await onClock('2028-02-01T00:00:00Z');
    const sub = (
      await api('POST', '/v1/subscriptions', {
        customer,
        items: [item(500)],
        collection_method: 'send_invoice',
      })
    ).body;
    const early = await api('POST', `/v1/subscriptions/${sub.id}/preview`, {
      items: [item(900)],
      proration_date: '2028-01-15T00:00:00Z',
    });
    expect(early.status).toBe(400);
    expect(early.body.error.param).toBe('proration_date');
  });
});
