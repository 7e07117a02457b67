// A POST runs through the bodyless check, then Idempotency-Key (bodyless.ts,
// idempotency.interceptor.ts). They are attached to the app's POST handlers, not installed
// globally: NestJS runs a global interceptor on every route, and each layer of its chain costs
// a request a deferred observable, a mergeAll and two AsyncResource.bind wrappers, for a GET
// that neither interceptor acts on (bench/README.md, finding 19). A GET now runs with no
// interceptor at all when tracing is off, and a POST with one layer instead of two.
//
// The same controller classes serve every app built in one process (the embedded platform and
// the test suites build several), while the interceptors hold their app's database: the
// handlers' metadata names one stateless dispatcher, and each app hangs its own chain on its
// Fastify instance, where the dispatcher finds it through the request.

import { INTERCEPTORS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import {
  RequestMethod,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
  type Type,
} from '@nestjs/common';
import { MetadataScanner, ModulesContainer, type NestApplication } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';

const CHAIN = 'paygridPostInterceptors';

/** Runs the chain its app registered (installPostInterceptors), in order. */
class PostInterceptors implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const server = context.switchToHttp().getRequest<FastifyRequest>().server as unknown as {
      [CHAIN]?: NestInterceptor[];
    };
    const chain = server[CHAIN];
    return chain ? layer(chain, 0, context, next) : next.handle();
  }
}

function layer(
  chain: NestInterceptor[],
  index: number,
  context: ExecutionContext,
  next: CallHandler,
): Observable<unknown> {
  if (index === chain.length) return next.handle();
  // Both interceptors answer synchronously (an Observable, or a thrown ApiError).
  return chain[index].intercept(context, {
    handle: () => layer(chain, index + 1, context, next),
  }) as Observable<unknown>;
}

const DISPATCHER = new PostInterceptors();

/** The POST (and ALL) handlers of every controller the app has. */
function postHandlers(app: Pick<NestApplication, 'get'>): object[] {
  const scanner = new MetadataScanner();
  const handlers = new Set<object>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const prototype = (wrapper.metatype as Type | undefined)?.prototype;
      if (!prototype) continue;
      for (const name of scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as object;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
        if (method === RequestMethod.POST || method === RequestMethod.ALL) handlers.add(handler);
      }
    }
  }
  return [...handlers];
}

/**
 * Gives the app's POST handlers `chain`, run in order after the global interceptors (tracing)
 * and before the handler's own. Call before `app.init()`, which builds the routes.
 */
export function installPostInterceptors(
  app: Pick<NestApplication, 'get'>,
  fastify: FastifyInstance,
  chain: NestInterceptor[],
): void {
  fastify.decorate(CHAIN, chain);
  for (const handler of postHandlers(app)) {
    const own: unknown[] = Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? [];
    if (!own.includes(DISPATCHER)) {
      Reflect.defineMetadata(INTERCEPTORS_METADATA, [DISPATCHER, ...own], handler);
    }
  }
}
