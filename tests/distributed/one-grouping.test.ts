// One grouping alone (issue 18 item 6), distributed: a payments-only installation (processes
// of payments and webhooks, and a gateway told PAYGRID_SERVICES=payments,webhooks) and an
// invoicing-only one (invoicing, webhooks, gateway), each on real PostgreSQL, Kafka and Redis,
// run a short scenario of their grouping end to end, the events reaching a webhook endpoint
// over Kafka. The absent service's process is never started: nothing here may wait on it
// (invoicing subscribes to payments.events.v1, which no one writes in an invoicing-only
// installation; payments consumes payments.commands.v1, which no invoicing process feeds).

import { Webhook } from 'standardwebhooks';
import { eventAbout } from '../support/events';
import { CARDS, payPage } from '../support/pages';
import { eventually, startDistributedPlatform, type DistributedPlatform } from '../support/platform';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await receiver?.stop();
});

/** Subscribes a webhook endpoint of the account to every event; answers its signing secret. */
async function subscribe(platform: DistributedPlatform, key: string): Promise<string> {
  const endpoint = await platform.api(key, 'POST', '/v1/webhooks', {
    url: receiver.url,
    enabled_events: ['*'],
  });
  expect(endpoint.status).toBe(200);
  return endpoint.body.secret;
}

/** Waits until the receiver holds a signed delivery of the event `type` about `objectId`. */
async function delivered(secret: string, type: string, objectId: string) {
  const hook = new Webhook(secret);
  return eventually(async () => {
    for (const r of receiver.received) {
      const event = JSON.parse(r.body);
      if (event.type !== type || event.data.object.id !== objectId) continue;
      hook.verify(r.body, r.headers as unknown as Record<string, string>);
      return event;
    }
    return undefined;
  }, 30_000);
}

async function healthOf(platform: DistributedPlatform) {
  const health = await fetch(`${platform.url}/health`);
  return {
    status: health.status,
    services: Object.keys(((await health.json()) as { services: Record<string, unknown> }).services).sort(),
  };
}

describe('a payments-only installation', () => {
  let platform: DistributedPlatform;

  beforeAll(async () => {
    platform = await startDistributedPlatform({}, { services: ['payments', 'webhooks'] });
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('runs without invoicing: a link paid on the hosted page, a refund, the events listed and delivered', async () => {
    expect(platform.pid('invoicing')).toBeUndefined();
    expect(await healthOf(platform)).toEqual({ status: 200, services: ['gateway', 'payments', 'webhooks'] });
    const account = await platform.newAccount(['payments']);
    const key = account.testKey;
    const secret = await subscribe(platform, key);

    const merchant = await platform.api(key, 'POST', '/v1/merchants', {
      business_name: 'Alone Books',
      email: 'owner@alone.test',
      country: 'DE',
      default_currency: 'EUR',
      business_type: 'company',
    });
    expect(merchant.status).toBe(200);
    const link = await platform.api(key, 'POST', '/v1/payment-links', {
      merchant: merchant.body.id,
      currency: 'EUR',
      line_items: [{ description: 'Book', quantity: 1, unit_amount: 1900 }],
    });
    expect(link.status).toBe(200);
    expect((await payPage(platform, `/pay/${link.body.id}`, CARDS.ok)).status).toBe(200);
    const [payment] = (await platform.api(key, 'GET', `/v1/transactions?payment_link=${link.body.id}`)).body
      .data;
    expect(payment).toMatchObject({ status: 'succeeded', amount: 1900, currency: 'EUR' });

    const refund = await platform.api(key, 'POST', '/v1/refunds', { transaction: payment.id, amount: 400 });
    expect([refund.status, refund.body.status]).toEqual([200, 'succeeded']);
    expect((await platform.api(key, 'GET', `/v1/transactions/${payment.id}`)).body).toMatchObject({
      amount_refunded: 400,
      refundable_amount: 1500,
    });

    await eventAbout(platform, key, 'payment.succeeded', payment.id);
    await eventAbout(platform, key, 'refund.succeeded', refund.body.id);
    expect((await delivered(secret, 'payment.succeeded', payment.id)).data.object.amount).toBe(1900);
    expect((await delivered(secret, 'refund.succeeded', refund.body.id)).data.object.amount).toBe(400);

    const invoices = await platform.api(key, 'GET', '/v1/invoices');
    expect([invoices.status, invoices.body.error.code]).toEqual([404, 'service_not_installed']);
  });
});

describe('an invoicing-only installation', () => {
  let platform: DistributedPlatform;

  beforeAll(async () => {
    platform = await startDistributedPlatform({}, { services: ['invoicing', 'webhooks'] });
  });

  afterAll(async () => {
    await platform?.stop();
  });

  it('runs without payments: a customer, an invoice sent and paid out of band, the events listed and delivered', async () => {
    expect(platform.pid('payments')).toBeUndefined();
    expect(await healthOf(platform)).toEqual({ status: 200, services: ['gateway', 'invoicing', 'webhooks'] });
    const account = await platform.newAccount(['invoicing']);
    const key = account.testKey;
    const secret = await subscribe(platform, key);

    const customer = await platform.api(key, 'POST', '/v1/customers', {
      name: 'Jenny Rosen',
      email: 'jenny@example.test',
      currency: 'GBP',
    });
    expect(customer.status).toBe(200);
    const invoice = await platform.api(key, 'POST', '/v1/invoices', {
      customer: customer.body.id,
      lines: [{ description: 'Consulting (hours)', quantity: 2, unit_amount: 1500, tax_rate_bps: 2000 }],
    });
    expect(invoice.status).toBe(200);
    expect(invoice.body).toMatchObject({ status: 'open', total: 3600 });
    const mails = await platform.sql(
      'invoicing',
      'select send_key from invoicing.mail_queue where send_key like $1',
      [`${invoice.body.id}:%`],
    );
    expect(mails).toEqual([{ send_key: `${invoice.body.id}:send:1` }]);

    const paid = await platform.api(key, 'POST', `/v1/invoices/${invoice.body.id}/pay`, {
      paid_out_of_band: true,
    });
    expect(paid.body).toMatchObject({
      status: 'paid',
      paid_out_of_band: true,
      amount_paid: 3600,
      amount_due: 0,
    });

    await eventAbout(platform, key, 'customer.created', customer.body.id);
    await eventAbout(platform, key, 'invoice.paid', invoice.body.id);
    expect((await delivered(secret, 'invoice.paid', invoice.body.id)).data.object.amount_paid).toBe(3600);

    const links = await platform.api(key, 'GET', '/v1/payment-links');
    expect([links.status, links.body.error.code]).toEqual([404, 'service_not_installed']);
  });
});
