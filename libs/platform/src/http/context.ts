// Route metadata and the request's internal context, as NestJS decorators.

import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { AuthenticatedContext, InternalContext, Scope } from '@paygrid/contracts';
import { ApiError } from '../errors';
import type { Span } from '../observability/tracing';
import type { Tx } from '../db/database';

export const PUBLIC_ROUTE = 'paygrid:public';
export const REQUIRED_SCOPE = 'paygrid:scope';

/** Reachable without an API key (health, hosted pages); still only through the gateway for pages. */
export const Public = (options: { bypassGateway?: boolean } = {}) =>
  SetMetadata(PUBLIC_ROUTE, { bypassGateway: false, ...options });

export const OPERATOR_ROUTE = 'paygrid:operator';

/**
 * Reachable only with the operator context the gateway's admin API signs (never through
 * /v1): an API key's context is refused with 403, whatever its scopes.
 */
export const OperatorOnly = () => SetMetadata(OPERATOR_ROUTE, true);

/** The scope an operation needs (docs/api.md §2); also published as x-required-scope. */
export const RequireScope = (scope: Scope) => SetMetadata(REQUIRED_SCOPE, scope);

export interface RequestWithContext {
  paygrid?: InternalContext;
  requestId?: string;
  /** This request's span (tracing on): ended with the answer's status in onResponse. */
  span?: Span;
  /** The transaction an idempotent POST runs in (IdempotencyInterceptor); see RequestTx. */
  transaction?: Tx;
}

/**
 * The transaction of an idempotent request (a POST with Idempotency-Key), which the handler
 * passes to its use case so that the write commits with the idempotency record; undefined
 * otherwise, and the use case opens its own (docs/adr/0015).
 */
export const RequestTx = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Tx | undefined =>
    ctx.switchToHttp().getRequest<RequestWithContext>().transaction,
);

/** The authenticated caller: account, mode, key and scopes. */
export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthenticatedContext => {
  const request = ctx.switchToHttp().getRequest<RequestWithContext>();
  if (request.paygrid?.kind !== 'api')
    throw new ApiError('authentication_required', 'An API key is required.');
  return request.paygrid;
});
