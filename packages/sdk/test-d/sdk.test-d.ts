// Type tests (`npm run test:types -w @paygrid/sdk`, part of `npm run typecheck`): compiled by
// tsc, never run. Each `@ts-expect-error` line must fail to compile, so a wrong path, field or
// event type is proven to be refused; the other lines prove what is accepted.

import { Paygrid, PaygridError, verify, type EventOf, type Schemas, type Timestamp } from '@paygrid/sdk';

declare const paygrid: Paygrid;

export async function requests(): Promise<void> {
  const link = await paygrid.POST('/v1/payment-links', {
    body: { merchant: 'mer_x', currency: 'EUR', amount: 1500 },
  });
  const status: 'active' | 'inactive' | 'completed' | 'expired' = link.status;
  const created: Timestamp = link.created_at;
  const url: string = link.url;

  // @ts-expect-error a field the request does not have
  await paygrid.POST('/v1/payment-links', { body: { currency: 'EUR', amount: 1500, colour: 'red' } });
  // @ts-expect-error a required field missing (currency)
  await paygrid.POST('/v1/payment-links', { body: { amount: 1500 } });
  // @ts-expect-error a field of the wrong type
  await paygrid.POST('/v1/payment-links', { body: { currency: 'EUR', amount: '15.00' } });
  // @ts-expect-error a path the API does not have
  await paygrid.GET('/v1/payment-link');
  // @ts-expect-error a method the path does not have
  await paygrid.DELETE('/v1/payment-links');
  // @ts-expect-error the path parameter is required
  await paygrid.GET('/v1/payment-links/{id}');
  // @ts-expect-error a field the object does not have
  void link.amount_due;
  // @ts-expect-error a date field is a Timestamp, not any string
  const notADate: Timestamp = 'yesterday';

  const one = await paygrid.GET('/v1/payment-links/{id}', { params: { path: { id: link.id } } });
  const sameType: Schemas['PaymentLink'] = one;

  for await (const item of paygrid.list('/v1/transactions', { limit: 100 })) {
    const amount: number = item.amount;
    void amount;
    // @ts-expect-error a transaction has no line items
    void item.line_items;
  }
  // @ts-expect-error not a list path
  paygrid.list('/v1/payment-links/{id}');

  try {
    await paygrid.GET('/v1/merchants');
  } catch (error) {
    if (PaygridError.is(error, 'resource_missing')) void error.requestId;
    // @ts-expect-error not a code of the catalogue
    PaygridError.is(error, 'no_such_code');
  }
  void [status, created, url, notADate, sameType];
}

export async function helpers(): Promise<void> {
  const link = await paygrid.paymentLinks.create(
    { currency: 'EUR', amount: 100 },
    { headers: { 'Idempotency-Key': 'k' } },
  );
  const same: Schemas['PaymentLink'] = await paygrid.paymentLinks.retrieve(link.id);
  // @ts-expect-error a field the request does not have
  await paygrid.paymentLinks.create({ currency: 'EUR', amount: 100, colour: 'red' });
  // @ts-expect-error a refund needs its transaction
  await paygrid.refunds.create({ amount: 5 });
  for await (const customer of paygrid.customers.list()) {
    const email: string | null = customer.email;
    void email;
  }
  // @ts-expect-error a filter this list does not take
  paygrid.paymentLinks.list({ status: 'exploded' });
  void same;
}

export function events(body: string, headers: Record<string, string>): void {
  const event = verify(body, headers, 'whsec_x');
  if (event.type === 'payment.succeeded') {
    const amount: number = event.data.object.amount;
    const transaction: Schemas['Transaction'] = event.data.object;
    // @ts-expect-error payment.succeeded has no previous_attributes
    void event.data.previous_attributes;
    void [amount, transaction];
  }
  if (event.type === 'payment_link.updated') {
    const before: string | null | undefined = event.data.previous_attributes?.description;
    // @ts-expect-error a payment link event carries a payment link, not a transaction
    const wrong: Schemas['Transaction'] = event.data.object;
    void [before, wrong];
  }
  // @ts-expect-error not an event type of the catalogue
  if (event.type === 'payment.exploded') return;
  const test: EventOf<'webhook_endpoint.test'>['data']['object']['object'] = 'webhook_endpoint';
  // @ts-expect-error not an event type of the catalogue
  type _Nope = EventOf<'payment.exploded'>;
  void test;
}

export async function requestLogs(paygrid: Paygrid): Promise<void> {
  for await (const request of paygrid.streamRequestLogs()) {
    const line: [string, string, number, number] = [
      request.method,
      request.path,
      request.status,
      request.duration_ms,
    ];
    // @ts-expect-error a request log keeps no body
    void request.body;
    // @ts-expect-error the request log stream takes no event types
    paygrid.streamRequestLogs({ types: ['payment.succeeded'] });
    void line;
  }
}
