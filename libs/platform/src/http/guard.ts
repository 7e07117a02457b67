// The guard every service installs: a request must carry a valid internal context signed by
// the gateway (health endpoints excepted), and the key's scopes must cover the operation.
// Operator-only routes take the operator's context and nothing else.

import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { scopeSatisfied, type Scope } from '@paygrid/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import { OPERATOR_ROUTE, PUBLIC_ROUTE, REQUIRED_SCOPE, type RequestWithContext } from './context';
import { verifyContext } from './internal-auth';

@Injectable()
export class InternalContextGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly secret: string,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest & RequestWithContext>();
    const targets = [context.getHandler(), context.getClass()];
    const publicRoute = this.reflector.getAllAndOverride<{ bypassGateway: boolean } | undefined>(
      PUBLIC_ROUTE,
      targets,
    );
    if (publicRoute?.bypassGateway) return true;

    const internal = verifyContext(this.secret, request.headers, request.method, request.url);
    if (!internal) {
      throw new ApiError('authentication_required', 'Requests must come through the API gateway.');
    }
    request.paygrid = internal;
    request.requestId = internal.request_id;
    if (this.reflector.getAllAndOverride<boolean | undefined>(OPERATOR_ROUTE, targets)) {
      if (internal.kind !== 'operator')
        throw new ApiError('insufficient_scope', 'This operation is reserved to the operator (admin API).');
      return true;
    }
    if (publicRoute) return true;
    if (internal.kind !== 'api') throw new ApiError('authentication_required', 'An API key is required.');

    const scope = this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, targets);
    if (!scope) {
      // Every API operation declares its scope; a missing one is a bug, and failing closed is safe.
      throw new ApiError('insufficient_scope', 'This operation is not available to API keys.');
    }
    if (!scopeSatisfied(internal.scopes, scope)) {
      throw new ApiError('insufficient_scope', `This API key lacks the required scope: ${scope}.`);
    }
    return true;
  }
}
