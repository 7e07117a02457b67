// @paygrid/sdk against the real platform, in both run modes: typed calls, the automatic
// Idempotency-Key and retries that keep it (a lost answer, 429 and 503), auto-pagination,
// the error class, and webhooks.verify on a real signed delivery.

import { Paygrid, PaygridError, verify, WebhookVerificationError, type EventOf } from '@paygrid/sdk';
import { eventually, usePlatform } from '../support/platform';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const suite = usePlatform({}, ['payments']);
let receiver: WebhookReceiver;

/** A client whose every request is seen by `spy` before it goes out (or instead). */
function client(
  spy?: (request: Request, attempt: number) => Promise<Response | undefined>,
  waits: number[] = [],
) {
  let attempt = 0;
  return new Paygrid(suite.account.testKey, {
    baseUrl: suite.platform.url,
    retry: { sleep: async (ms) => void waits.push(ms) },
    fetch: async (input, init) => {
      const request = input as Request;
      const replaced = await spy?.(request.clone(), attempt++);
      return replaced ?? fetch(request, init);
    },
  });
}

let merchant: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  const created = await client().POST('/v1/merchants', {
    body: {
      business_name: 'SDK Books',
      email: 'owner@sdk.test',
      country: 'DE',
      default_currency: 'EUR',
      business_type: 'company',
    },
  });
  merchant = created.id;
});

afterAll(async () => {
  await receiver?.stop();
});

describe('@paygrid/sdk', () => {
  it('sends typed requests and answers the typed object', async () => {
    const link = await client().POST('/v1/payment-links', {
      body: { merchant, currency: 'EUR', amount: 1500 },
    });
    expect(link).toMatchObject({ object: 'payment_link', amount_total: 1500, status: 'active' });
    const again = await client().GET('/v1/payment-links/{id}', { params: { path: { id: link.id } } });
    expect(again.id).toBe(link.id);
  });

  it('adds an Idempotency-Key to every POST, keeps the caller’s own, and none on GET', async () => {
    const seen: [string, string | null][] = [];
    const sdk = client(
      async (request) => void seen.push([request.method, request.headers.get('idempotency-key')]),
    );
    const first = await sdk.POST('/v1/payment-links', {
      body: { merchant, currency: 'EUR', amount: 700 },
      headers: { 'Idempotency-Key': 'order-7' },
    });
    const replay = await sdk.POST('/v1/payment-links', {
      body: { merchant, currency: 'EUR', amount: 700 },
      headers: { 'Idempotency-Key': 'order-7' },
    });
    await sdk.POST('/v1/payment-links', { body: { merchant, currency: 'EUR', amount: 700 } });
    await sdk.GET('/v1/payment-links');
    expect(replay.id).toBe(first.id);
    expect(seen.slice(0, 2)).toEqual([
      ['POST', 'order-7'],
      ['POST', 'order-7'],
    ]);
    expect(seen[2][1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[3]).toEqual(['GET', null]);
  });

  it('retries a POST whose answer was lost with the same key: one payment link, not two', async () => {
    const keys: (string | null)[] = [];
    const reference = `lost-${Date.now()}`;
    const sdk = client(async (request, attempt) => {
      keys.push(request.headers.get('idempotency-key'));
      if (attempt > 0) return undefined;
      await fetch(request); // the server does the work...
      throw new TypeError('fetch failed'); // ...and the answer never arrives
    });
    const link = await sdk.POST('/v1/payment-links', {
      body: { merchant, currency: 'EUR', amount: 900, client_reference_id: reference },
    });
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const all = [];
    for await (const item of client().list('/v1/payment-links', { limit: 100 }))
      if (item.client_reference_id === reference) all.push(item.id);
    expect(all).toEqual([link.id]);
  });

  it('retries 429 and 503 honouring Retry-After, and gives up after maxRetries', async () => {
    const waits: number[] = [];
    const busy = (status: number) =>
      new Response(
        JSON.stringify({ error: { type: 'api_error', code: 'x', message: 'busy', request_id: 'req_1' } }),
        {
          status,
          headers: { 'retry-after': '2', 'content-type': 'application/json' },
        },
      );
    const flaky = client(
      async (_request, attempt) => (attempt === 0 ? busy(429) : attempt === 1 ? busy(503) : undefined),
      waits,
    );
    expect((await flaky.GET('/v1/merchants/{id}', { params: { path: { id: merchant } } })).id).toBe(merchant);
    expect(waits).toEqual([2000, 2000]);
    const down = client(async () => busy(503));
    await expect(down.GET('/v1/merchants')).rejects.toMatchObject({ status: 503, message: 'busy' });
  });

  it('iterates a whole list across pages, newest first', async () => {
    const sdk = client();
    const created = [];
    for (let i = 0; i < 5; i++)
      created.push(
        (await sdk.POST('/v1/payment-links', { body: { merchant, currency: 'EUR', amount: 100 + i } })).id,
      );
    const pages: (string | null)[] = [];
    const paging = client(
      async (request) => void pages.push(new URL(request.url).searchParams.get('starting_after')),
    );
    const seen: string[] = [];
    for await (const link of paging.list('/v1/payment-links', { limit: 2 })) seen.push(link.id);
    expect(seen.slice(0, 5)).toEqual([...created].reverse());
    expect(new Set(seen).size).toBe(seen.length);
    // Page i starts after the last object of page i - 1.
    expect(pages).toEqual(pages.map((_, i) => (i === 0 ? null : seen[2 * i - 1])));
    expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(seen.length / 2));
  });

  it('offers helpers for the common resources, over the same typed calls', async () => {
    const sdk = client();
    const link = await sdk.paymentLinks.create({ merchant, currency: 'EUR', amount: 2100 });
    expect((await sdk.paymentLinks.retrieve(link.id)).amount_total).toBe(2100);
    expect((await sdk.paymentLinks.update(link.id, { description: 'Renamed' })).description).toBe('Renamed');
    const ids = [];
    for await (const item of sdk.paymentLinks.list({ limit: 100 })) ids.push(item.id);
    expect(ids).toContain(link.id);
  });

  it('throws the error envelope as a PaygridError', async () => {
    const error = await client()
      .GET('/v1/payment-links/{id}', { params: { path: { id: 'plink_doesnotexist0000' } } })
      .catch((e: unknown) => e);
    expect(PaygridError.is(error, 'resource_missing')).toBe(true);
    expect(error).toMatchObject({ status: 404, type: 'invalid_request_error', code: 'resource_missing' });
    expect((error as PaygridError).requestId).toMatch(/^req_/);
    const bad = await client()
      .POST('/v1/payment-links', { body: { merchant, currency: 'EUR', amount: -1 } })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, param: 'amount' });
  });

  it('verifies a real delivery and returns the typed event; a tampered one is refused', async () => {
    const sdk = client();
    const endpoint = await sdk.POST('/v1/webhooks', {
      body: { url: receiver.url, enabled_events: ['payment_link.created'] },
    });
    const link = await sdk.POST('/v1/payment-links', { body: { merchant, currency: 'EUR', amount: 4200 } });
    const delivery = await eventually(async () =>
      receiver.received.find((r) => JSON.parse(r.body).data.object.id === link.id),
    );
    const event = verify(delivery.body, delivery.headers, endpoint.secret ?? '');
    expect(event.type).toBe('payment_link.created');
    if (event.type !== 'payment_link.created') throw new Error('narrowing');
    const typed: EventOf<'payment_link.created'> = event;
    expect(typed.data.object.amount_total).toBe(4200);
    expect(() =>
      verify(delivery.body.replace('4200', '4300'), delivery.headers, endpoint.secret ?? ''),
    ).toThrow(WebhookVerificationError);
  });
});
