// Helpers for the common resources over the typed calls (`paygrid.paymentLinks.create(...)`):
// each is one line on `GET`/`POST`/`DELETE`/`list`, so its types come from the generated
// document like theirs. Everything else: `paygrid.GET('/v1/...')`.

import type { Paygrid } from './client.js';
import type { ListQuery, paths } from './types.js';

type Calls = Pick<Paygrid, 'GET' | 'POST' | 'DELETE' | 'list'>;
/** The JSON body of `POST path`. */
type BodyOf<P extends keyof paths> = paths[P] extends {
  post: { requestBody?: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
/** Per call: your own Idempotency-Key (else one is made), or other headers. */
export interface CallOptions {
  headers?: Record<string, string>;
}

const byId = (id: string) => ({ params: { path: { id } } });

export function resources(client: Calls) {
  return {
    paymentLinks: {
      create: (body: BodyOf<'/v1/payment-links'>, options: CallOptions = {}) =>
        client.POST('/v1/payment-links', { body, ...options }),
      retrieve: (id: string) => client.GET('/v1/payment-links/{id}', byId(id)),
      update: (id: string, body: BodyOf<'/v1/payment-links/{id}'>, options: CallOptions = {}) =>
        client.POST('/v1/payment-links/{id}', { ...byId(id), body, ...options }),
      list: (query?: ListQuery<'/v1/payment-links'>) => client.list('/v1/payment-links', query),
    },
    transactions: {
      retrieve: (id: string) => client.GET('/v1/transactions/{id}', byId(id)),
      list: () => client.list('/v1/transactions'),
    },
    refunds: {
      create: (body: BodyOf<'/v1/refunds'>, options: CallOptions = {}) =>
        client.POST('/v1/refunds', { body, ...options }),
      retrieve: (id: string) => client.GET('/v1/refunds/{id}', byId(id)),
      list: () => client.list('/v1/refunds'),
    },
    customers: {
      create: (body: BodyOf<'/v1/customers'>, options: CallOptions = {}) =>
        client.POST('/v1/customers', { body, ...options }),
      retrieve: (id: string) => client.GET('/v1/customers/{id}', byId(id)),
      update: (id: string, body: BodyOf<'/v1/customers/{id}'>, options: CallOptions = {}) =>
        client.POST('/v1/customers/{id}', { ...byId(id), body, ...options }),
      del: (id: string) => client.DELETE('/v1/customers/{id}', byId(id)),
      list: () => client.list('/v1/customers'),
    },
    invoices: {
      create: (body: BodyOf<'/v1/invoices'>, options: CallOptions = {}) =>
        client.POST('/v1/invoices', { body, ...options }),
      retrieve: (id: string) => client.GET('/v1/invoices/{id}', byId(id)),
      list: () => client.list('/v1/invoices'),
    },
    subscriptions: {
      create: (body: BodyOf<'/v1/subscriptions'>, options: CallOptions = {}) =>
        client.POST('/v1/subscriptions', { body, ...options }),
      retrieve: (id: string) => client.GET('/v1/subscriptions/{id}', byId(id)),
      list: () => client.list('/v1/subscriptions'),
    },
    events: {
      retrieve: (id: string) => client.GET('/v1/events/{id}', byId(id)),
      list: () => client.list('/v1/events'),
    },
    webhookEndpoints: {
      create: (body: BodyOf<'/v1/webhooks'>, options: CallOptions = {}) =>
        client.POST('/v1/webhooks', { body, ...options }),
      list: () => client.list('/v1/webhooks'),
      del: (id: string) => client.DELETE('/v1/webhooks/{id}', byId(id)),
    },
  };
}

/** For a signature: `Resources['paymentLinks']['create']`. */
export type Resources = ReturnType<typeof resources>;
