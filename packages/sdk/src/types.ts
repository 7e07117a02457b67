// Names for the generated types (src/generated/openapi.ts): the objects, the events, the error
// codes. Everything here is derived from the OpenAPI document; nothing is written twice.

import type { components, paths } from './generated/openapi.js';

export type { components, paths, webhooks, Timestamp } from './generated/openapi.js';

/** Every schema of the document, by name: `Schemas['PaymentLink']`. */
export type Schemas = components['schemas'];

/** An event, as GET /v1/events lists it and webhooks deliver it: a union discriminated on `type`. */
export type Event = Schemas['Event'];
export type EventType = Event['type'];
/** The event of one type: `EventOf<'payment.succeeded'>['data']['object']` is a Transaction. */
export type EventOf<T extends EventType> = Extract<Event, { type: T }>;

export type ErrorEnvelope = Schemas['ErrorEnvelope'];
export type ErrorCode = ErrorEnvelope['error']['code'];
export type ErrorType = ErrorEnvelope['error']['type'];

type JsonOf<R> = R extends { content: { 'application/json': infer T } } ? T : never;

/** The paths that have a GET answering a list (`{ object: 'list', data, has_more }`). */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: infer R } } }
    ? JsonOf<R> extends { object: 'list'; data: unknown[]; has_more: boolean }
      ? P
      : never
    : never;
}[keyof paths];

/** The objects of a list path: `ListItem<'/v1/payment-links'>` is a PaymentLink. */
export type ListItem<P extends ListPath> = paths[P] extends { get: { responses: { 200: infer R } } }
  ? JsonOf<R> extends { data: (infer T)[] }
    ? T
    : never
  : never;

/** The query a list path accepts. */
export type ListQuery<P extends ListPath> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;
