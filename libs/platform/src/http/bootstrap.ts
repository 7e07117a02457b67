// Builds a service's HTTP application the same way everywhere: Fastify under NestJS, the
// error envelope, global validation, the internal-context guard, request ids and health.

import type { Duplex } from 'node:stream';
import { Global, Module, type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CLOCK } from '../clock';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor';
import { NestPinoLogger } from '../logging';
import { OpenApiController } from '../openapi/openapi.controller';
import { trackRoutes } from '../openapi/registered-routes';
import { RUNTIME, type ServiceRuntime } from '../runtime';
import { ApiExceptionFilter, requestIdOf, sendError, toApiError } from './exception-filter';
import { routeOwner } from '@paygrid/contracts';
import type { RequestWithContext } from './context';
import { InternalContextGuard } from './guard';
import { HEALTH_DETAILS, HealthController, type HealthDetails } from './health.controller';
import { BodylessInterceptor } from './bodyless';
import { installPostInterceptors } from './post-interceptors';
import { trackConnections } from './graceful-close';
import { parseQuery } from './query';
import { ApiValidationPipe } from './validation';
import { SpanStatusCode } from '@opentelemetry/api';
import { SpanKind, startSpan, traceIdOf, tracingEnabled } from '../observability/tracing';
import { TracingInterceptor } from './tracing.interceptor';

export const BODY_LIMIT = 1024 * 1024;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Provides the runtime (and its clock) to every module of a service. */
@Global()
@Module({})
export class RuntimeModule {
  static forRoot(
    runtime: ServiceRuntime,
    options: { health?: boolean; openapi?: boolean; healthDetails?: HealthDetails } = {},
  ): DynamicModule {
    return {
      module: RuntimeModule,
      controllers: [
        ...(options.health === false ? [] : [HealthController]),
        // The service's fragment of the public API document (GET /openapi.json).
        ...(options.openapi === false ? [] : [OpenApiController]),
      ],
      providers: [
        { provide: RUNTIME, useValue: runtime },
        { provide: CLOCK, useValue: runtime.clock },
        ...(options.healthDetails ? [{ provide: HEALTH_DETAILS, useValue: options.healthDetails }] : []),
      ],
      exports: [RUNTIME, CLOCK],
    };
  }
}

export interface HttpAppOptions {
  /** Require the gateway's signed context on every route (all services; not the gateway). */
  internalGuard?: boolean;
  /** Registers plain Fastify routes or hooks before the app starts. */
  configure?: (fastify: FastifyInstance) => void | Promise<void>;
  /**
   * One JSON access-log line per request (the gateway, which sees every request once in both
   * run modes; a service behind it would log the same request again).
   */
  accessLog?: boolean;
}

/**
 * The route label of a request: its route template (`/v1/invoices/:id`). A catch-all route
 * (the gateway's `/v1/*`) is labelled by the API prefix it serves, when the route table knows
 * it; anything else is `unmatched`, so a client cannot grow the label set.
 */
export function routeLabel(request: FastifyRequest): string {
  const template = request.routeOptions?.url;
  if (!template) return 'unmatched';
  if (!template.endsWith('*')) return template;
  const prefix = template.slice(0, -1);
  const next = request.url.slice(prefix.length).split(/[/?]/)[0];
  return prefix === '/v1/' && routeOwner(next) ? `/v1/${next}` : template;
}

/**
 * JSON (and form posts, for the hosted pages) parsed here rather than by the framework, so
 * that a malformed body is the catalogue's `invalid_json` and the raw bytes stay available
 * (`request.rawBody`) for the gateway to forward unchanged. An empty body counts as `{}`.
 */
function registerBodyParsers(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    (request as FastifyRequest & { rawBody?: Buffer }).rawBody = body;
    if (body.length === 0) return done(null, {});
    try {
      // fatal: invalid UTF-8 is invalid JSON, not text silently stored with U+FFFD in it.
      done(null, JSON.parse(UTF8.decode(body)));
    } catch {
      done(new ApiError('invalid_json', 'The request body is not valid JSON.'), undefined);
    }
  });
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
    (request, body: Buffer, done) => {
      (request as FastifyRequest & { rawBody?: Buffer }).rawBody = body;
      done(null, Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
    },
  );
}

/**
 * A request Node's HTTP parser refuses (a raw non-ASCII byte in the request target, a broken
 * header) never reaches Fastify's routing: Fastify's default answer was a bare
 * `{"error":"Bad Request"}`. Answer it with the error envelope, a request id and the security
 * headers every other answer carries; then close the connection, which is in an unknown state.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const requestId = newId('req');
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const apiError = tooLarge
    ? new ApiError('payload_too_large', 'The request line or headers are too large.')
    : new ApiError(
        'parameter_invalid',
        'The request is not valid HTTP: the URL and headers must be ASCII (percent-encode anything else).',
      );
  const body = JSON.stringify(apiError.toEnvelope(requestId));
  socket.end(
    [
      `HTTP/1.1 ${apiError.status} ${tooLarge ? 'Payload Too Large' : 'Bad Request'}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      `request-id: ${requestId}`,
      'x-content-type-options: nosniff',
      'referrer-policy: no-referrer',
      'x-frame-options: DENY',
      'cross-origin-resource-policy: same-origin',
      'cache-control: no-store',
      "content-security-policy: default-src 'none'; frame-ancestors 'none'",
      'connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}

export async function createHttpApp(
  root: Type | DynamicModule,
  runtime: ServiceRuntime,
  options: HttpAppOptions = {},
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT,
    clientErrorHandler: answerClientError,
    return503OnClosing: true,
    // maxParamLength: Fastify's default (100) turned a longer path id into an unlogged 500.
    routerOptions: { querystringParser: parseQuery, maxParamLength: 1000 },
    // Errors Fastify raises before routing (a path with broken percent-encoding such as
    // /v1/events/%ZZ) bypass NestJS: answer them with the envelope too. Such a path names
    // no route: 404 route_not_found.
    // A path parameter over maxParamLength (1000 characters) cannot be any object's id: 404
    // resource_missing, as for any id that does not exist (it was a 500 that nobody logged).
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const { error: apiError, unexpected } = toApiError(
        error.code === 'FST_ERR_BAD_URL'
          ? new ApiError('route_not_found', 'Unrecognized request URL.')
          : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
            ? new ApiError('resource_missing', 'No such object: the id in the path is too long.')
            : error,
      );
      if (unexpected || apiError.status >= 500) {
        runtime.logger.error(
          { err: error, request_id: requestIdOf(request) },
          'framework error before routing',
        );
      }
      sendError(reply, request, apiError);
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    logger: new NestPinoLogger(runtime.logger),
    abortOnError: false,
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  const closeConnections = trackConnections(fastify.server);
  fastify.addHook('preClose', async () => closeConnections());
  trackRoutes(fastify);
  registerBodyParsers(fastify);
  // A path with U+0000 (%00) names nothing that can exist (PostgreSQL cannot even compare
  // it): 404 before any handler passes it to a query that would fail with a 500 or a 400.
  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (/%00/i.test(request.url.split('?')[0])) {
      sendError(reply, request, new ApiError('route_not_found', 'Unrecognized request URL.'));
      return reply;
    }
  });
  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.header('request-id', requestIdOf(request));
  });
  // The edge (the gateway, which has no internal guard): one span per request from its
  // arrival, continuing a caller's W3C traceparent if it sent one. Services start theirs in
  // TracingInterceptor, once the signed context (and the gateway's traceparent) is verified.
  // Tracing off (the default): neither the hook nor the interceptor is installed at all.
  const tracing = tracingEnabled();
  if (tracing && options.internalGuard === false) {
    fastify.addHook('onRequest', async (request: FastifyRequest & RequestWithContext) => {
      const incoming = request.headers.traceparent;
      request.span = startSpan(
        request.method,
        SpanKind.SERVER,
        typeof incoming === 'string' ? incoming : null,
        {
          'http.request.method': request.method,
          'paygrid.service': runtime.config.service,
        },
      );
    });
  }
  // Every answer is counted and timed (docs/observability.md); the gateway also logs it.
  fastify.addHook('onResponse', async (request: FastifyRequest & RequestWithContext, reply: FastifyReply) => {
    const route = routeLabel(request);
    const status = reply.statusCode;
    const span = request.span;
    const traceId = traceIdOf(span);
    if (span) {
      span.updateName(`${request.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': status });
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    runtime.metrics.observeHttp(
      runtime.config.service,
      request.method,
      route,
      status,
      reply.elapsedTime / 1000,
    );
    if (!options.accessLog) return;
    const caller = request.paygrid?.kind === 'api' ? request.paygrid : undefined;
    runtime.logger.info(
      {
        access: true,
        method: request.method,
        route,
        status,
        latency_ms: Math.round(reply.elapsedTime * 10) / 10,
        request_id: requestIdOf(request),
        account_id: caller?.account ?? null,
        key_id: caller?.key_id ?? null,
        livemode: caller?.livemode ?? null,
        // Present when tracing is on: the trace of this request in the tracing backend.
        ...(traceId ? { trace_id: traceId } : {}),
      },
      'request',
    );
  });
  // Errors raised before a handler runs (body parsing, unknown routes) reach NestJS's error
  // handler, and through it the ApiExceptionFilter below.
  app.useGlobalFilters(new ApiExceptionFilter(runtime.logger));
  app.useGlobalPipes(new ApiValidationPipe());
  if (options.internalGuard !== false) {
    app.useGlobalGuards(new InternalContextGuard(app.get(Reflector), runtime.config.internalSecret));
    // Tracing first: the idempotent replay and the handler's transaction run inside its span.
    if (tracing) app.useGlobalInterceptors(new TracingInterceptor(runtime.config.service));
    // POST handlers only (post-interceptors.ts). A body sent to a handler that takes none is
    // refused before any idempotency record.
    installPostInterceptors(app, fastify, [
      new BodylessInterceptor(),
      new IdempotencyInterceptor(runtime.db),
    ]);
  }
  await options.configure?.(fastify);
  await app.init();
  await fastify.ready();
  return app;
}
