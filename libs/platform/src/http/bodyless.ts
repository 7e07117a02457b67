// A POST whose handler takes no body (cancel, deactivate, send, test helpers, ...)
// refuses a body with fields: 400 parameter_unknown naming the first, as a handler with a DTO
// refuses an unknown field (docs/api.md, unknown fields are refused, not ignored; Stripe's
// "Received unknown parameter"). An empty body, `{}` or an empty form, is accepted. A handler
// that reads the request itself (@Req(), e.g. a processor's webhook and its raw body) is left
// to do so. Runs before the idempotency interceptor: a refused request records nothing. A
// DELETE is not checked: none documents a 400 (nor a body).

import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { ApiError } from '../errors';

/** Whether a handler's parameters include none that carries or reads the body. */
function takesNoBody(controller: object, handler: { name: string }): boolean {
  const args: Record<string, unknown> =
    Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {};
  // Keys are "<paramtype>:<index>"; custom decorators (@Caller) have their own prefix.
  const types = Object.keys(args).map((key) => Number(key.split(':')[0]));
  return ![RouteParamtypes.BODY, RouteParamtypes.REQUEST, RouteParamtypes.RAW_BODY].some((t) =>
    types.includes(t),
  );
}

/** The first field of a parsed body, or undefined when it has none. */
export function firstBodyField(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) return '(body)';
  return Object.keys(body)[0];
}

@Injectable()
export class BodylessInterceptor implements NestInterceptor {
  private readonly bodyless = new WeakMap<object, boolean>();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.method === 'POST') {
      const handler = context.getHandler();
      let bodyless = this.bodyless.get(handler);
      if (bodyless === undefined) {
        bodyless = takesNoBody(context.getClass(), handler);
        this.bodyless.set(handler, bodyless);
      }
      const field = bodyless ? firstBodyField(request.body) : undefined;
      if (field !== undefined) {
        throw new ApiError(
          'parameter_unknown',
          field === '(body)'
            ? 'This endpoint takes no request body.'
            : `Received unknown parameter: ${field} (this endpoint takes no request body).`,
          field === '(body)' ? undefined : field,
        );
      }
    }
    return next.handle();
  }
}
