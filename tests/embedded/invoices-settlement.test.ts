// Invoice settlement from payments.events.v1, end to end in the embedded platform: the events
// are published on the real bus exactly as the payments service publishes them (a payment
// transaction naming the invoice), and the invoicing consumer settles the invoice. Covers
// exactly-once settlement under redelivery, a decline leaving the invoice open, the hosted
// page's processing/declined/paid states, mandate adoption and the charge command written
// by /pay, and the billing listener hook running in the settlement transaction.
//
// The full loop through the payments service (card form, mandate charge consumer) is in
// tests/integration/invoices-payment.test.ts.

import { randomBytes } from 'node:crypto';
import { TOPICS, type EventType } from '@paygrid/contracts';
import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { buildEvent, createLogger } from '@paygrid/platform';
import type { PaymentOutcome } from '../../apps/invoicing/src/invoices/invoices.internal';
import { eventually } from '../support/platform';

let embedded: Embedded;
let key: string;
let accountId: string;
const outcomes: PaymentOutcome[] = [];

async function call(method: string, path: string, body?: unknown, token: string | undefined = key) {
  const response = await fetch(`${embedded.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // a page
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** Publishes a payments event on the bus, as the payments service's outbox relay does. */
async function publishPaymentsEvent(type: EventType, object: Record<string, unknown>, eventId?: string) {
  const event = buildEvent({ type, account: accountId, livemode: false, object, at: new Date() });
  if (eventId) event.id = eventId;
  await embedded.services.invoicing.runtime.bus.publish(TOPICS.paymentsEvents, [
    { key: accountId, value: JSON.stringify(event) },
  ]);
  return event;
}

const txnId = () => `txn_${randomBytes(12).toString('hex')}`;

async function openInvoice(extra: Record<string, unknown> = {}) {
  const customer = await call('POST', '/v1/customers', {
    name: 'Jenny Rosen',
    email: 'jenny@example.test',
    currency: 'EUR',
  });
  const invoice = await call('POST', '/v1/invoices', {
    customer: customer.body.id,
    lines: [{ description: 'Work', quantity: 2, unit_amount: 5000, tax_rate_bps: 2100 }],
    ...extra,
  });
  expect(invoice.status).toBe(200);
  return invoice.body;
}

async function invoiceEventTypes(id: string): Promise<string[]> {
  const list = await call('GET', '/v1/events?limit=100');
  return list.body.data
    .filter((e: any) => e.type.startsWith('invoice.') && e.data.object.id === id)
    .map((e: any) => e.type)
    .reverse();
}

beforeAll(async () => {
  embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    demo: false,
    logger: createLogger('test', process.env.LOG_LEVEL ?? 'silent'),
  });
  const operator = embedded.operatorToken;
  const account = await call(
    'POST',
    '/admin/v1/accounts',
    { name: 'Acme GmbH', groupings: ['invoicing'] },
    operator,
  );
  accountId = account.body.id;
  const created = await call(
    'POST',
    `/admin/v1/accounts/${accountId}/keys`,
    { mode: 'test', kind: 'secret' },
    operator,
  );
  key = created.body.secret;
  embedded.services.invoicing.invoices.onPaymentOutcome(async (tx, outcome) => {
    // Runs inside the settlement transaction: it sees the settled invoice row.
    const [row] = await tx.query<{ status: string }>('select status from invoicing.invoices where id = $1', [
      outcome.invoice.id,
    ]);
    expect(row.status).toBe(outcome.invoice.status);
    outcomes.push(outcome);
  });
});

afterAll(async () => {
  await embedded?.stop();
});

it('settles an invoice once from payment.succeeded, however often the event or the payment arrives', async () => {
  const invoice = await openInvoice();
  expect(invoice).toMatchObject({ status: 'open', total: 12100, amount_due: 12100 });
  const txn = txnId();
  const payment = {
    id: txn,
    object: 'transaction',
    invoice: invoice.id,
    customer: invoice.customer,
    amount: 12100,
    currency: 'EUR',
  };

  const processing = await call(
    'GET',
    `${new URL(invoice.hosted_url).pathname}?payment=${txn}`,
    undefined,
    undefined,
  );
  expect(String(processing.body)).toContain('Processing your payment');
  expect(String(processing.body)).toContain('<meta http-equiv="refresh" content="2">');
  expect(String(processing.body)).not.toContain('/pay/invoices/');

  const event = await publishPaymentsEvent('payment.succeeded', payment);
  const paid = await eventually(async () => {
    const got = await call('GET', `/v1/invoices/${invoice.id}`);
    return got.body.status === 'paid' ? got.body : undefined;
  });
  expect(paid).toMatchObject({ amount_paid: 12100, amount_due: 0, last_payment_error: null });
  expect(paid.status_transitions.paid_at).not.toBeNull();

  // The same event redelivered, and a second event for the same payment: nothing changes.
  await publishPaymentsEvent('payment.succeeded', payment, event.id);
  await publishPaymentsEvent('payment.succeeded', payment);
  const marker = await openInvoice();
  await publishPaymentsEvent('payment.failed', {
    id: txnId(),
    invoice: marker.id,
    amount: 1,
    currency: 'EUR',
  });
  await eventually(async () =>
    (await invoiceEventTypes(marker.id)).includes('invoice.payment_failed') ? true : undefined,
  );
  expect((await call('GET', `/v1/invoices/${invoice.id}`)).body).toEqual(paid);
  expect((await invoiceEventTypes(invoice.id)).filter((t) => t === 'invoice.paid')).toEqual(['invoice.paid']);
  expect(outcomes.filter((o) => o.invoice.id === invoice.id).map((o) => [o.outcome, o.transaction])).toEqual([
    ['succeeded', txn],
  ]);

  const page = await call(
    'GET',
    `${new URL(invoice.hosted_url).pathname}?payment=${txn}`,
    undefined,
    undefined,
  );
  expect(String(page.body)).toContain('<strong>Paid.</strong>');
  expect(String(page.body)).not.toContain('http-equiv="refresh"');
});

it('keeps a declined invoice open with invoice.payment_failed and shows the error on the page', async () => {
  const invoice = await openInvoice();
  const txn = txnId();
  await publishPaymentsEvent('payment.failed', {
    id: txn,
    object: 'transaction',
    invoice: invoice.id,
    amount: 12100,
    currency: 'EUR',
    failure_code: 'card_declined',
    failure_message: 'The card was declined.',
  });
  const failed = await eventually(async () => {
    const got = await call('GET', `/v1/invoices/${invoice.id}`);
    return got.body.last_payment_error ? got.body : undefined;
  });
  expect(failed).toMatchObject({
    status: 'open',
    amount_due: 12100,
    last_payment_error: { code: 'card_declined', message: 'The card was declined.', transaction: txn },
  });
  const types = await eventually(async () => {
    const seen = await invoiceEventTypes(invoice.id);
    return seen.includes('invoice.payment_failed') ? seen : undefined;
  });
  expect(types).toEqual(['invoice.created', 'invoice.finalized', 'invoice.sent', 'invoice.payment_failed']);
  const page = String(
    (await call('GET', `${new URL(invoice.hosted_url).pathname}?payment=${txn}`, undefined, undefined)).body,
  );
  expect(page).toContain('Your payment was not completed:</strong> The card was declined.');
  expect(page).toContain('/pay/invoices/');
  expect(
    outcomes.some(
      (o) => o.invoice.id === invoice.id && o.outcome === 'failed' && o.failure_code === 'card_declined',
    ),
  ).toBe(true);
});

it("adopts a customer's first mandate and charges it through a payment.charge_mandate command on /pay", async () => {
  const invoice = await openInvoice({ collection_method: 'charge_automatically' });
  // No mandate yet: charge_automatically falls back to e-mailing the hosted page.
  expect(invoice.sent_at).not.toBeNull();
  const mandate = `mdt_${randomBytes(12).toString('hex')}`;
  await publishPaymentsEvent('mandate.created', {
    id: mandate,
    object: 'mandate',
    customer: invoice.customer,
  });
  await eventually(async () => {
    const customer = await call('GET', `/v1/customers/${invoice.customer}`);
    return customer.body.default_mandate === mandate ? true : undefined;
  });
  // A later mandate does not replace the default.
  await publishPaymentsEvent('mandate.created', {
    id: `mdt_${randomBytes(12).toString('hex')}`,
    customer: invoice.customer,
  });

  const charged = await call('POST', `/v1/invoices/${invoice.id}/pay`, {});
  expect(charged.status).toBe(200);
  expect(charged.body).toMatchObject({ status: 'open', attempt_count: 1 });
  const again = await call('POST', `/v1/invoices/${invoice.id}/pay`, {});
  expect([again.status, again.body.error.code]).toEqual([409, 'invalid_state_transition']);

  const commands = await embedded.services.invoicing.runtime.db.query<{ payload: any }>(
    `select payload from invoicing.outbox where topic = $1 and payload->'data'->>'invoice' = $2`,
    [TOPICS.paymentsCommands, invoice.id],
  );
  expect(commands.map((c) => c.payload)).toEqual([
    expect.objectContaining({
      type: 'payment.charge_mandate',
      account: accountId,
      livemode: false,
      data: {
        mandate,
        amount: 12100,
        currency: 'EUR',
        invoice: invoice.id,
        customer: invoice.customer,
        reference: `${invoice.id}:1`,
        description: `Invoice ${invoice.number}`,
      },
    }),
  ]);
  expect((await call('GET', `/v1/customers/${invoice.customer}`)).body.default_mandate).toBe(mandate);

  await publishPaymentsEvent('payment.succeeded', {
    id: txnId(),
    invoice: invoice.id,
    mandate,
    reference: `${invoice.id}:1`,
    amount: 12100,
    currency: 'EUR',
  });
  await eventually(async () =>
    (await call('GET', `/v1/invoices/${invoice.id}`)).body.status === 'paid' ? true : undefined,
  );
  expect(outcomes.find((o) => o.invoice.id === invoice.id)?.reference).toBe(`${invoice.id}:1`);
});

it('marks an open invoice overdue once when its due date has passed', async () => {
  const invoice = await openInvoice({ days_until_due: 1 });
  const invoices = embedded.services.invoicing.invoices;
  const later = new Date(Date.parse(invoice.due_date) + 1000);
  expect(
    await invoices.runOverdue(new Date(Date.parse(invoice.due_date) - 1000), {
      tenant: { account: accountId, livemode: false },
    }),
  ).toBe(0);
  expect(await invoices.runOverdue(later, { tenant: { account: accountId, livemode: false } })).toBe(1);
  expect(await invoices.runOverdue(later, { tenant: { account: accountId, livemode: false } })).toBe(0);
  expect((await call('GET', `/v1/invoices/${invoice.id}`)).body.overdue).toBe(true);
  await eventually(async () =>
    (await invoiceEventTypes(invoice.id)).includes('invoice.overdue') ? true : undefined,
  );
});

it('credits partial payments until the invoice is paid, and records money received for a void invoice without reopening it', async () => {
  const invoice = await openInvoice();
  const pay = (amount: number, currency = 'EUR', id = invoice.id) =>
    publishPaymentsEvent('payment.succeeded', { id: txnId(), invoice: id, amount, currency });
  await pay(5_000);
  const partial = await eventually(async () => {
    const got = await call('GET', `/v1/invoices/${invoice.id}`);
    return got.body.amount_paid === 5_000 ? got.body : undefined;
  });
  expect(partial).toMatchObject({ status: 'open', amount_due: 7_100 });
  // Another currency credits nothing; the rest settles it.
  await pay(7_100, 'USD');
  await pay(7_100);
  const paid = await eventually(async () => {
    const got = await call('GET', `/v1/invoices/${invoice.id}`);
    return got.body.status === 'paid' ? got.body : undefined;
  });
  expect(paid).toMatchObject({ amount_paid: 12_100, amount_due: 0 });

  const voided = await openInvoice();
  await call('POST', `/v1/invoices/${voided.id}/void`);
  await pay(12_100, 'EUR', voided.id);
  const still = await eventually(async () => {
    const got = await call('GET', `/v1/invoices/${voided.id}`);
    return got.body.amount_paid === 12_100 ? got.body : undefined;
  });
  expect(still).toMatchObject({ status: 'void', amount_due: 0 });
  expect(await invoiceEventTypes(voided.id)).not.toContain('invoice.paid');
});
