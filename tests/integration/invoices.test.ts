// Invoices end to end through the gateway, in whichever mode the project runs: exact totals,
// finalize and the gapless number, the state machine, list filters, e-mail on send, the
// hosted page and its PDF, and (once the payments service serves /pay/invoices and consumes
// payments.commands.v1) payment through the hosted page and by mandate.

import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;
let accountName: string;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
  accountName = (await platform.admin('GET', `/admin/v1/accounts/${account.id}`)).body.name;
});

afterAll(async () => {
  await platform?.stop();
});

/** Three lines, two tax rates (20 % and 5 %), 10 % off. Hand-computed in the first test. */
const STANDARD = { tax_category: 'S', tax_exemption_reason: null };
const LINES = [
  { description: 'Consulting (hours)', quantity: 2, unit_amount: 1500, tax_rate_bps: 2000 },
  { description: 'Software licence', quantity: 1, unit_amount: 999, tax_rate_bps: 2000 },
  { description: 'Books', quantity: 3, unit_amount: 333, tax_rate_bps: 500 },
];

async function newCustomer(key: string, extra: Record<string, unknown> = {}): Promise<string> {
  const created = await platform.api(key, 'POST', '/v1/customers', {
    name: 'Jenny Rosen',
    email: 'jenny@example.test',
    currency: 'GBP',
    address: { line1: '1 High Street', city: 'London', postal_code: 'N1 9GU', country: 'GB' },
    ...extra,
  });
  expect(created.status).toBe(200);
  return created.body.id;
}

/** The account's invoice.* events about `id`, oldest first, once `types` have all arrived. */
async function invoiceEvents(key: string, id: string, types: string[]): Promise<any[]> {
  return eventually(async () => {
    const list = await platform.api(key, 'GET', '/v1/events?limit=100');
    const mine = list.body.data
      .filter((e: any) => e.type.startsWith('invoice.') && e.data.object.id === id)
      .reverse();
    const seen = mine.map((e: any) => e.type);
    return types.every((t) => seen.includes(t)) ? mine : undefined;
  });
}

const pathOf = (url: string) => new URL(url).pathname;

describe.each(['test', 'live'] as const)('invoices in %s mode', (mode) => {
  const key = () => (mode === 'test' ? account.testKey : account.liveKey);

  it('computes exact totals, edits the draft, finalizes with the first number, and refuses what the state does not allow', async () => {
    const customer = await newCustomer(key());
    const created = await platform.api(key(), 'POST', '/v1/invoices', {
      customer,
      lines: LINES,
      discount: { percent_bps: 1000 },
      send: false,
      metadata: { order: '6735' },
    });
    expect(created.status).toBe(200);
    // subtotal 3000 + 999 + 999 = 4998; 10 % = 499.8 -> 500 (half-even). Shares by largest
    // remainder: 300, 100, 100. Tax: 2700 x 20 % = 540; 899 x 20 % = 179.8 -> 180;
    // 899 x 5 % = 44.95 -> 45; 765 in all. Total 4998 - 500 + 765 = 5263.
    expect(created.body).toMatchObject({
      object: 'invoice',
      livemode: mode === 'live',
      customer,
      status: 'draft',
      number: null,
      currency: 'GBP',
      subtotal: 4998,
      discount_total: 500,
      tax_total: 765,
      total: 5263,
      amount_paid: 0,
      amount_due: 5263,
      collection_method: 'send_invoice',
      hosted_url: null,
      pdf_url: null,
      discount: { percent_bps: 1000 },
      metadata: { order: '6735' },
      status_transitions: {
        finalized_at: null,
        paid_at: null,
        voided_at: null,
        marked_uncollectible_at: null,
      },
    });
    expect(created.body.lines).toEqual([
      // Taxed lines without a category are standard rated (S), with no exemption reason.
      { ...LINES[0], amount: 3000, discount_amount: 300, tax_amount: 540, ...STANDARD },
      { ...LINES[1], amount: 999, discount_amount: 100, tax_amount: 180, ...STANDARD },
      { ...LINES[2], amount: 999, discount_amount: 100, tax_amount: 45, ...STANDARD },
    ]);
    const id: string = created.body.id;

    // A fixed discount of 100: shares 60, 20, 20; tax 588 + 196 (195.8) + 49 (48.95) = 833.
    const edited = await platform.api(key(), 'POST', `/v1/invoices/${id}`, { discount: { amount: 100 } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ subtotal: 4998, discount_total: 100, tax_total: 833, total: 5731 });
    expect(edited.body.lines.map((l: any) => l.discount_amount)).toEqual([60, 20, 20]);
    const back = await platform.api(key(), 'POST', `/v1/invoices/${id}`, { discount: { percent_bps: 1000 } });
    expect(back.body.total).toBe(5263);

    const finalized = await platform.api(key(), 'POST', `/v1/invoices/${id}/finalize`);
    expect(finalized.status).toBe(200);
    expect(finalized.body).toMatchObject({
      status: 'open',
      number: 'INV-0001',
      days_until_due: 30,
      seller: { name: accountName },
      customer_details: { name: 'Jenny Rosen', email: 'jenny@example.test', tax_id: null },
      total: 5263,
      amount_due: 5263,
    });
    const finalizedAt = Date.parse(finalized.body.status_transitions.finalized_at);
    expect(Date.parse(finalized.body.due_date) - finalizedAt).toBe(30 * 86_400_000);
    expect(finalized.body.hosted_url).toMatch(/\/i\/[A-Za-z0-9_-]{43}$/);
    expect(finalized.body.pdf_url).toBe(`${finalized.body.hosted_url}/pdf`);

    for (const [method, path, body] of [
      ['POST', `/v1/invoices/${id}`, { description: 'too late' }],
      ['DELETE', `/v1/invoices/${id}`, undefined],
      ['POST', `/v1/invoices/${id}/finalize`, undefined],
    ] as const) {
      const refused = await platform.api(key(), method, path, body);
      expect([method, path, refused.status, refused.body.error?.code]).toEqual([
        method,
        path,
        409,
        'invalid_state_transition',
      ]);
    }
    const unchanged = await platform.api(key(), 'GET', `/v1/invoices/${id}`);
    expect(unchanged.body).toEqual(finalized.body);

    const events = await invoiceEvents(key(), id, ['invoice.created', 'invoice.finalized']);
    expect(events.map((e) => e.type)).toEqual(['invoice.created', 'invoice.finalized']);
    expect(events[1].data.object).toMatchObject({ number: 'INV-0001', status: 'open' });
  });

  it('creates and sends in one call (number, e-mail queued once, invoice.sent), and walks the other states', async () => {
    const customer = await newCustomer(key());
    const draft = await platform.api(key(), 'POST', '/v1/invoices', { customer, lines: LINES, send: false });
    const deleted = await platform.api(key(), 'DELETE', `/v1/invoices/${draft.body.id}`);
    expect(deleted.body).toEqual({ id: draft.body.id, object: 'invoice', deleted: true });
    expect((await platform.api(key(), 'GET', `/v1/invoices/${draft.body.id}`)).status).toBe(404);

    const sent = await platform.api(
      key(),
      'POST',
      '/v1/invoices',
      { customer, lines: LINES },
      { 'idempotency-key': `send-${mode}` },
    );
    expect(sent.status).toBe(200);
    // The deleted draft never had a number: the sequence goes on without a gap.
    expect(sent.body).toMatchObject({
      status: 'open',
      number: 'INV-0002',
      subtotal: 4998,
      tax_total: 850,
      total: 5848,
    });
    expect(sent.body.sent_at).toBe(sent.body.status_transitions.finalized_at);
    const replay = await platform.api(
      key(),
      'POST',
      '/v1/invoices',
      { customer, lines: LINES },
      { 'idempotency-key': `send-${mode}` },
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(sent.body.id);
    const mails = await platform.sql(
      'invoicing',
      'select send_key, to_addresses from invoicing.mail_queue where send_key like $1',
      [`${sent.body.id}:%`],
    );
    expect(mails).toEqual([{ send_key: `${sent.body.id}:send:1`, to_addresses: ['jenny@example.test'] }]);

    const resent = await platform.api(key(), 'POST', `/v1/invoices/${sent.body.id}/send`);
    expect(resent.status).toBe(200);
    const mailsAfter = await platform.sql(
      'invoicing',
      'select send_key from invoicing.mail_queue where send_key like $1 order by send_key',
      [`${sent.body.id}:%`],
    );
    expect(mailsAfter.map((m: any) => m.send_key)).toEqual([
      `${sent.body.id}:send:1`,
      `${sent.body.id}:send:2`,
    ]);

    const noMandate = await platform.api(key(), 'POST', `/v1/invoices/${sent.body.id}/pay`, {});
    expect([noMandate.status, noMandate.body.error.code, noMandate.body.error.param]).toEqual([
      400,
      'parameter_invalid',
      'customer',
    ]);
    const uncollectible = await platform.api(
      key(),
      'POST',
      `/v1/invoices/${sent.body.id}/mark-uncollectible`,
    );
    expect(uncollectible.body.status).toBe('uncollectible');
    const paid = await platform.api(key(), 'POST', `/v1/invoices/${sent.body.id}/pay`, {
      paid_out_of_band: true,
    });
    expect(paid.body).toMatchObject({
      status: 'paid',
      paid_out_of_band: true,
      amount_paid: sent.body.total,
      amount_due: 0,
    });
    const voidPaid = await platform.api(key(), 'POST', `/v1/invoices/${sent.body.id}/void`);
    expect([voidPaid.status, voidPaid.body.error.code]).toEqual([409, 'invalid_state_transition']);

    const toVoid = await platform.api(key(), 'POST', '/v1/invoices', { customer, lines: LINES.slice(0, 1) });
    expect(toVoid.body.number).toBe('INV-0003');
    const voided = await platform.api(key(), 'POST', `/v1/invoices/${toVoid.body.id}/void`);
    expect(voided.body).toMatchObject({ status: 'void', number: 'INV-0003' });
    expect(voided.body.status_transitions.voided_at).not.toBeNull();

    const events = await invoiceEvents(key(), sent.body.id, [
      'invoice.created',
      'invoice.finalized',
      'invoice.sent',
      'invoice.marked_uncollectible',
      'invoice.paid',
    ]);
    expect(events.map((e) => e.type)).toEqual([
      'invoice.created',
      'invoice.finalized',
      'invoice.sent',
      'invoice.sent',
      'invoice.marked_uncollectible',
      'invoice.paid',
    ]);
    await invoiceEvents(key(), toVoid.body.id, ['invoice.voided']);
  });

  it('refuses bad input with 400 and creates nothing', async () => {
    const customer = await newCustomer(key(), { email: undefined });
    const before = await platform.api(key(), 'GET', `/v1/invoices?customer=${customer}`);
    const cases: [unknown, number, string, string][] = [
      [{ customer, lines: LINES, send: false, total: 1 }, 400, 'parameter_unknown', 'total'],
      [
        { customer, lines: [{ ...LINES[0], unit_amount: 1.5 }], send: false },
        400,
        'parameter_invalid',
        'lines[0][unit_amount]',
      ],
      [
        { customer, lines: [{ ...LINES[0], unit_amount: '15' }], send: false },
        400,
        'parameter_invalid',
        'lines[0][unit_amount]',
      ],
      [
        { customer, lines: [{ ...LINES[0], tax_rate_bps: 10_001 }], send: false },
        400,
        'parameter_invalid',
        'lines[0][tax_rate_bps]',
      ],
      [
        { customer, lines: Array.from({ length: 251 }, () => LINES[0]), send: false },
        400,
        'parameter_invalid',
        'lines',
      ],
      [
        { customer, lines: LINES, discount: { percent_bps: 10, amount: 5 }, send: false },
        400,
        'parameter_invalid',
        'discount',
      ],
      [{ customer, lines: LINES, currency: 'USD', send: false }, 400, 'parameter_invalid', 'currency'],
      [
        { customer, lines: LINES, days_until_due: 5, due_date: '2099-01-01T00:00:00Z', send: false },
        400,
        'parameter_invalid',
        'due_date',
      ],
      [
        { customer, lines: [{ ...LINES[0], quantity: 1_000_000, unit_amount: 99_999_999_999 }], send: false },
        400,
        'parameter_invalid',
        'lines',
      ],
      [{ customer: 'cus_doesnotexist000', lines: LINES, send: false }, 404, 'resource_missing', 'customer'],
      // Sending needs an e-mail address: nothing is created (not even a draft, not a number).
      [{ customer, lines: LINES }, 400, 'parameter_invalid', 'customer'],
    ];
    for (const [body, status, code, param] of cases) {
      const response = await platform.api(key(), 'POST', '/v1/invoices', body);
      expect({
        body,
        status: response.status,
        code: response.body.error?.code,
        param: response.body.error?.param,
      }).toEqual({
        body,
        status,
        code,
        param,
      });
    }
    const after = await platform.api(key(), 'GET', `/v1/invoices?customer=${customer}`);
    expect(after.body.data).toEqual(before.body.data);
    expect(after.body.data).toEqual([]);
  });

  it('lists newest first with status, customer, created and due_date filters', async () => {
    const first = await newCustomer(key());
    const second = await newCustomer(key());
    const a = await platform.api(key(), 'POST', '/v1/invoices', {
      customer: first,
      lines: LINES,
      send: false,
    });
    const b = await platform.api(key(), 'POST', '/v1/invoices', {
      customer: first,
      lines: LINES,
      days_until_due: 5,
    });
    const c = await platform.api(key(), 'POST', '/v1/invoices', {
      customer: second,
      lines: LINES,
      days_until_due: 60,
    });
    const ids = (r: any) => {
      // A failed list names its status and error.
      expect({ status: r.status, error: r.body.error }).toEqual({ status: 200, error: undefined });
      return r.body.data.map((i: any) => i.id);
    };

    expect(ids(await platform.api(key(), 'GET', `/v1/invoices?customer=${first}`))).toEqual([
      b.body.id,
      a.body.id,
    ]);
    expect(ids(await platform.api(key(), 'GET', `/v1/invoices?customer=${first}&status=draft`))).toEqual([
      a.body.id,
    ]);
    expect(ids(await platform.api(key(), 'GET', `/v1/invoices?customer=${second}&status=open`))).toEqual([
      c.body.id,
    ]);
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const dueSoon = await platform.api(
      key(),
      'GET',
      `/v1/invoices?due_date[lte]=${encodeURIComponent(soon)}&status=open`,
    );
    expect(ids(dueSoon)).toContain(b.body.id);
    expect(ids(dueSoon)).not.toContain(c.body.id);
    const createdSince = await platform.api(
      key(),
      'GET',
      `/v1/invoices?created[gte]=${encodeURIComponent(b.body.created_at)}&customer=${first}`,
    );
    expect(ids(createdSince)).toEqual([b.body.id]);
    const page1 = await platform.api(key(), 'GET', `/v1/invoices?limit=1&customer=${first}`);
    expect(page1.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/invoices' });
    const page2 = await platform.api(
      key(),
      'GET',
      `/v1/invoices?limit=1&customer=${first}&starting_after=${page1.body.data[0].id}`,
    );
    expect(ids(page2)).toEqual([a.body.id]);
    const bad = await platform.api(key(), 'GET', '/v1/invoices?status=pending');
    expect([bad.status, bad.body.error.code, bad.body.error.param]).toEqual([
      400,
      'parameter_invalid',
      'status',
    ]);
  });
});

describe("the customer's billing summary and history", () => {
  it('count finalized invoices that are not void, owe the open ones, and list every finalized invoice', async () => {
    const key = account.testKey;
    const customer = await newCustomer(key);
    const open = await platform.api(key, 'POST', '/v1/invoices', { customer, lines: LINES });
    const paid = await platform.api(key, 'POST', '/v1/invoices', { customer, lines: LINES });
    await platform.api(key, 'POST', `/v1/invoices/${paid.body.id}/pay`, { paid_out_of_band: true });
    const voided = await platform.api(key, 'POST', '/v1/invoices', { customer, lines: LINES });
    await platform.api(key, 'POST', `/v1/invoices/${voided.body.id}/void`);
    const draft = await platform.api(key, 'POST', '/v1/invoices', { customer, lines: LINES, send: false });

    const got = await platform.api(key, 'GET', `/v1/customers/${customer}`);
    expect(got.body.billing_summary).toEqual({
      total_invoiced: 2 * 5848,
      total_paid: 0,
      balance_due: 5848,
      currency: 'GBP',
      invoice_count: 2,
    });
    const history = await platform.api(key, 'GET', `/v1/customers/${customer}/billing-history?limit=100`);
    expect(history.status).toBe(200);
    const items = history.body.data.map((i: any) => [i.type, i.id, i.status, i.amount]);
    expect(items).toHaveLength(3);
    expect(items).toEqual(
      expect.arrayContaining([
        ['invoice', open.body.id, 'open', 5848],
        ['invoice', paid.body.id, 'paid', 5848],
        ['invoice', voided.body.id, 'void', 5848],
      ]),
    );
    expect(items.map((i: any) => i[1])).not.toContain(draft.body.id);
  });
});

describe('test clocks', () => {
  it("dates a test-clock customer's invoice by the clock, and the clock's advance makes it overdue", async () => {
    const clock = await platform.api(account.testKey, 'POST', '/v1/test-clocks', {
      frozen_time: '2031-03-01T09:00:00.000Z',
    });
    expect(clock.status).toBe(200);
    const customer = await newCustomer(account.testKey, { test_clock: clock.body.id });
    const invoice = await platform.api(account.testKey, 'POST', '/v1/invoices', {
      customer,
      lines: LINES,
      days_until_due: 14,
    });
    expect(invoice.body).toMatchObject({
      status: 'open',
      test_clock: clock.body.id,
      created_at: '2031-03-01T09:00:00.000Z',
      status_transitions: { finalized_at: '2031-03-01T09:00:00.000Z' },
      due_date: '2031-03-15T09:00:00.000Z',
      sent_at: '2031-03-01T09:00:00.000Z',
      overdue: false,
    });
    const advanced = await platform.api(account.testKey, 'POST', `/v1/test-clocks/${clock.body.id}/advance`, {
      frozen_time: '2031-03-16T00:00:00.000Z',
    });
    expect(advanced.status).toBe(200);
    expect((await platform.api(account.testKey, 'GET', `/v1/invoices/${invoice.body.id}`)).body.overdue).toBe(
      true,
    );
    const events = await invoiceEvents(account.testKey, invoice.body.id, ['invoice.overdue']);
    expect(events.filter((e) => e.type === 'invoice.overdue')).toHaveLength(1);
    // The clock runs what falls due step by step: the sweep ran at the due date itself.
    expect(events.at(-1).created_at).toBe('2031-03-15T09:00:00.000Z');
  });
});

describe('tenancy and groupings', () => {
  it("answers 404 for another account's or the other mode's invoice; the payments grouping reads but does not write", async () => {
    const customer = await newCustomer(account.testKey);
    const invoice = await platform.api(account.testKey, 'POST', '/v1/invoices', {
      customer,
      lines: LINES,
      send: false,
    });
    const other = await platform.newAccount(['payments', 'invoicing']);
    for (const key of [other.testKey, account.liveKey]) {
      const response = await platform.api(key, 'GET', `/v1/invoices/${invoice.body.id}`);
      expect([response.status, response.body.error.code]).toEqual([404, 'resource_missing']);
      const finalize = await platform.api(key, 'POST', `/v1/invoices/${invoice.body.id}/finalize`);
      expect(finalize.status).toBe(404);
    }
    const paymentsOnly = await platform.newAccount(['payments']);
    const list = await platform.api(paymentsOnly.testKey, 'GET', '/v1/invoices');
    expect([list.status, list.body.data]).toEqual([200, []]);
    const create = await platform.api(paymentsOnly.testKey, 'POST', '/v1/invoices', {
      customer,
      lines: LINES,
    });
    expect([create.status, create.body.error.code]).toEqual([403, 'grouping_not_enabled']);
  });
});

describe('the hosted invoice page', () => {
  it('shows the invoice without JavaScript under a strict CSP, with the PDF and a Pay link to the card form', async () => {
    const customer = await newCustomer(account.testKey);
    const invoice = await platform.api(account.testKey, 'POST', '/v1/invoices', {
      customer,
      lines: LINES,
      discount: { percent_bps: 1000 },
    });
    const page = await platform.api(undefined, 'GET', pathOf(invoice.body.hosted_url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = String(page.body);
    expect(html).not.toMatch(/<script/i);
    for (const text of [
      invoice.body.number,
      accountName,
      'Jenny Rosen',
      'Consulting (hours)',
      '49.98 GBP',
      '-5.00 GBP',
      '7.65 GBP',
      '52.63 GBP',
      '20%',
      '5%',
    ]) {
      expect(html).toContain(text);
    }
    const payLink = /href="(\/pay\/invoices\/[^"]+)"/.exec(html)?.[1];
    expect(payLink).toBeDefined();

    const pdf = await fetch(`${platform.url}${pathOf(invoice.body.pdf_url)}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(
      `inline; filename="Invoice-${invoice.body.number}.pdf"`,
    );
    expect(pdf.headers.get('cache-control')).toBe('no-store');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const missing = await platform.api(undefined, 'GET', '/i/not-a-real-token-000000000000000');
    expect(missing.status).toBe(404);
  });
});
