// Input and lists in one mode: invalid invoices are refused with 400 (or 404) and nothing is
// created; lists come newest first with status, customer, created and due_date filters and
// cursor pages.

import { invoiceHelpers, LINES, type InvoicesContext } from './invoices.helpers';

/** Registered inside the test file's describe.each over the modes; `key` is the mode's key. */
export function inputAndListCases(ctx: () => InvoicesContext, key: () => string) {
  const { newCustomer } = invoiceHelpers(ctx);

  it('refuses bad input with 400 and creates nothing', async () => {
    const { platform } = ctx();
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
    const { platform } = ctx();
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
}
