// The guard every service installs: a request must carry a valid internal context signed by
// the gateway, or handed over by it in process (health endpoints excepted), and the key's
// scopes must cover the operation. Operator-only routes take the operator's context and
// nothing else.

import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { scopeSatisfied, type Scope } from '@paygrid/contracts';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import { OPERATOR_ROUTE, PUBLIC_ROUTE, REQUIRED_SCOPE, type RequestWithContext } from './context';
import { handedOverContext, verifyContext } from './internal-auth';

/** What a handler's decorators ask of the guard (read once per handler: RouteRules). */
interface RouteRules {
  publicRoute: { bypassGateway: boolean } | undefined;
  operator: boolean;
  scope: Scope | undefined;
}

@Injectable()
export class InternalContextGuard implements CanActivate {
  /**
   * Each handler's rules, read from its metadata on its first request: the decorators never
   * change at run time, and three reflector lookups per request (reflect-metadata walks of
   * the handler and its class) were a percent of a service's CPU on an authenticated read.
   */
  private readonly rules = new WeakMap<object, WeakMap<object, RouteRules>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly secret: string,
  ) {}

  private rulesOf(context: ExecutionContext): RouteRules {
    const handler = context.getHandler();
    const controller = context.getClass();
    // By class, then handler: an inherited handler is one function under several classes.
    let byHandler = this.rules.get(controller);
    if (!byHandler) {
      byHandler = new WeakMap();
      this.rules.set(controller, byHandler);
    }
    let rules = byHandler.get(handler);
    if (!rules) {
      const targets = [handler, controller];
      rules = {
        publicRoute: this.reflector.getAllAndOverride<{ bypassGateway: boolean } | undefined>(
          PUBLIC_ROUTE,
          targets,
        ),
        operator: this.reflector.getAllAndOverride<boolean | undefined>(OPERATOR_ROUTE, targets) === true,
        scope: this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, targets),
      };
      byHandler.set(handler, rules);
    }
    return rules;
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest & RequestWithContext>();
    const { publicRoute, operator, scope } = this.rulesOf(context);
    if (publicRoute?.bypassGateway) return true;

    // In process (embedded), the gateway hands the context over on the request object; across
    // processes it comes signed in headers.
    const internal =
      handedOverContext(request.raw) ??
      verifyContext(this.secret, request.headers, request.method, request.url);
    if (!internal) {
      throw new ApiError('authentication_required', 'Requests must come through the API gateway.');
    }
    request.paygrid = internal;
    request.requestId = internal.request_id;
    if (operator) {
      if (internal.kind !== 'operator')
        throw new ApiError('insufficient_scope', 'This operation is reserved to the operator (admin API).');
      return true;
    }
    if (publicRoute) return true;
    if (internal.kind !== 'api') throw new ApiError('authentication_required', 'An API key is required.');

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
