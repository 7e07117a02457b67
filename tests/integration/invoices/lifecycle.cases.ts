// An invoice's life in one mode: exact totals of the draft and its edits, finalize with the
// next gapless number, the states it may and may not move to, and create-and-send in one
// call (the e-mail queued once, invoice.sent, resend, pay, void, uncollectible).

import { invoiceHelpers, LINES, STANDARD, type InvoicesContext } from './invoices.helpers';

/** Registered inside the test file's describe.each over the modes; `key` is the mode's key. */
export function lifecycleCases(ctx: () => InvoicesContext, mode: 'test' | 'live', key: () => string) {
  const { newCustomer, invoiceEvents } = invoiceHelpers(ctx);

  it('computes exact totals, edits the draft, finalizes with the first number, and refuses what the state does not allow', async () => {
    const { platform, accountName } = ctx();
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
    const { platform } = ctx();
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
}
