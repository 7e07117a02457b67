// A service's span for each request it serves, child of the gateway's span whose traceparent
// came in the signed internal context (so it runs after the guard verified it). The handler
// runs with the span active: the outbox rows it writes carry its trace context. The span is
// ended with the answer's status in the onResponse hook (bootstrap.ts). Installed only when
// tracing is on.

import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';
import { SpanKind, startSpan, withSpan } from '../observability/tracing';
import type { RequestWithContext } from './context';

@Injectable()
export class TracingInterceptor implements NestInterceptor {
  constructor(private readonly service: string) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & RequestWithContext>();
    const route = request.routeOptions?.url ?? 'unmatched';
    const span = startSpan(`${request.method} ${route}`, SpanKind.SERVER, request.paygrid?.traceparent, {
      'http.request.method': request.method,
      'http.route': route,
      'paygrid.service': this.service,
      'paygrid.request_id': request.requestId ?? '',
    });
    request.span = span;
    return new Observable((subscriber) => withSpan(span, () => next.handle().subscribe(subscriber)));
  }
}
