// The context the gateway passes to the services with every request it forwards. It is
// signed with the internal secret; services refuse any request that lacks a valid one.

import type { Grouping } from './groupings';

export const INTERNAL_CONTEXT_HEADER = 'x-paygrid-context';
export const INTERNAL_SIGNATURE_HEADER = 'x-paygrid-signature';
export const REQUEST_ID_HEADER = 'request-id';

export interface AuthenticatedContext {
  kind: 'api';
  account: string;
  /** The account's display name (the seller on invoices, the default merchant's name). */
  account_name: string;
  livemode: boolean;
  key_id: string;
  scopes: string[];
  groupings: Grouping[];
  request_id: string;
  /** Unix ms when the gateway signed it; services refuse stale contexts. */
  issued_at: number;
}

export interface PublicContext {
  kind: 'public';
  request_id: string;
  issued_at: number;
}

/**
 * The operator, through the admin API (`/admin/v1`): not tenant-scoped, accepted only by
 * routes marked operator-only, which no API key can reach.
 */
export interface OperatorContext {
  kind: 'operator';
  request_id: string;
  issued_at: number;
}

/**
 * Every kind may carry the W3C `traceparent` of the gateway's span for this request (only
 * when tracing is on): the service's span continues that trace. Signed like the rest.
 */
export type InternalContext = (AuthenticatedContext | PublicContext | OperatorContext) & {
  traceparent?: string;
};
