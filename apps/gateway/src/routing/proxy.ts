// The /v1 front door: authenticate the key, check the grouping, sign the internal context,
// forward to the owning service, and relay its answer. Registered as a plain Fastify route
// (not a NestJS controller) because it is the hot path of every API call.

import {
  groupingAllows,
  PUBLIC_PAGE_PREFIXES,
  routeOwner,
  routeService,
  type AuthenticatedContext,
  type InternalContext,
  type PublicContext,
  type ServiceName,
} from '@paygrid/contracts';
import {
  ApiError,
  canonicalRequestTarget,
  newId,
  sendError,
  toApiError,
  type Logger,
  traceparentOf,
  type Span,
} from '@paygrid/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountsService, AuthenticatedKey } from '../accounts/accounts.service';
import type { ApiRateLimits } from '../rate-limit/api-rate-limits';
import type { OpenApiDocumentService } from '../openapi/openapi.document';
import type { RequestLogShipper } from '../request-log/request-log-shipper';
import { relay, relayStream } from './relay';
import type { Upstream } from './upstream';

export interface ProxyDeps {
  accounts: AccountsService;
  upstream: Upstream;
  /** Per-key token buckets (after authentication) and the failed-authentication limit. */
  rateLimits: ApiRateLimits;
  logger: Logger;
  /**
   * Load shedding: the most /v1 and page requests this instance handles at once. Beyond it a
   * request is answered 503 at once (Retry-After: 1) instead of queueing behind the others.
   */
  maxInFlight: number;
  /** The services this installation runs; a route of another answers 404 service_not_installed. */
  services?: readonly ServiceName[];
  /** The public API document: which methods each path takes (405 with `Allow` for the others). */
  document?: Pick<OpenApiDocumentService, 'get'>;
  /** Notes each answered request of an account, after its answer left (request-log-shipper.ts). */
  requestLog?: Pick<RequestLogShipper, 'note'>;
}

/**
 * Routes answered as server-sent events: relayed as they arrive (no time limit on the body
 * but the upstream's idle one), and not counted in flight once their headers are back, so a
 * long-lived stream does not take a slot of the load shedder.
 */
const STREAM_ROUTES = new Set(['GET /v1/events/stream', 'GET /v1/request-logs/stream']);

/** The methods the public API uses; any other reaches no service (HEAD is GET's twin). */
const API_METHODS = new Set(['GET', 'HEAD', 'POST', 'DELETE']);

/** `Allow` for a /v1 path from the document's path templates, or undefined when none matches. */
async function allowedMethods(
  document: Pick<OpenApiDocumentService, 'get'>,
  path: string,
): Promise<string | undefined> {
  const paths = (await document.get()).paths as Record<string, Record<string, unknown>>;
  for (const [template, operations] of Object.entries(paths)) {
    const pattern = new RegExp(
      `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`,
    );
    if (pattern.test(path)) {
      const methods = Object.keys(operations).filter((m) => ['get', 'post', 'delete'].includes(m));
      return methods
        .map((m) => m.toUpperCase())
        .sort()
        .join(', ');
    }
  }
  return undefined;
}

/** Seconds a shed client is asked to wait: the backlog of one instance drains within about one. */
const OVERLOAD_RETRY_AFTER_SECONDS = 1;

function overloaded(): ApiError {
  return new ApiError(
    'upstream_unavailable',
    'The service is overloaded; retry after the number of seconds in Retry-After.',
    undefined,
    { headers: { 'retry-after': String(OVERLOAD_RETRY_AFTER_SECONDS) } },
  );
}

type RawRequest = FastifyRequest & {
  rawBody?: Buffer;
  requestId?: string;
  paygrid?: InternalContext;
  span?: Span;
  /** Gives back the load shedder's slot early (an open event stream: see relayStream). */
  releaseSlot?: () => void;
  /** The authenticated caller, for the request log. */
  logAs?: { account: string; livemode: boolean };
};

function forwardHeaders(request: RawRequest): Record<string, string> {
  const headers: Record<string, string> = { 'request-id': request.requestId ?? '' };
  const contentType = request.headers['content-type'];
  if (typeof contentType === 'string') headers['content-type'] = contentType;
  const idempotencyKey = request.headers['idempotency-key'];
  if (typeof idempotencyKey === 'string') headers['idempotency-key'] = idempotencyKey;
  const accept = request.headers['accept'];
  if (typeof accept === 'string') headers['accept'] = accept;
  // The public card forms under /pay speak the browser's language (bounded, as payments reads it).
  const acceptLanguage = request.headers['accept-language'];
  if (typeof acceptLanguage === 'string') headers['accept-language'] = acceptLanguage.slice(0, 512);
  const lastEventId = request.headers['last-event-id'];
  if (typeof lastEventId === 'string') headers['last-event-id'] = lastEventId;
  // A processor's webhook signature (POST /hooks/stripe/<connection>), checked by payments over
  // the raw body, which is forwarded byte for byte.
  const stripeSignature = request.headers['stripe-signature'];
  if (typeof stripeSignature === 'string' && request.url.startsWith('/hooks/')) {
    headers['stripe-signature'] = stripeSignature;
  }
  return headers;
}

export function registerProxy(fastify: FastifyInstance, deps: ProxyDeps): void {
  // A method the API never uses (PUT, PATCH, OPTIONS, QUERY, ...) on a /v1 URL: 405 with the
  // methods the document lists for that URL, before Fastify would parse a body for it (QUERY
  // without a content type was a 400) and before any service sees it.
  fastify.addHook('onRequest', async (request: RawRequest, reply: FastifyReply) => {
    if (API_METHODS.has(request.method) || !request.url.startsWith('/v1/') || !deps.document) return;
    request.requestId ??= newId('req');
    const allow = await allowedMethods(deps.document, request.url.split('?')[0]).catch(() => undefined);
    sendError(
      reply,
      request,
      allow
        ? new ApiError(
            'method_not_allowed',
            `${request.method} is not allowed on this URL; it takes ${allow}.`,
            undefined,
            {
              headers: { allow },
            },
          )
        : new ApiError(
            'route_not_found',
            `Unrecognized request URL (${request.method}: ${request.url.split('?')[0]}).`,
          ),
    );
    return reply;
  });

  // When the machine saturates below the keys' rate limits, requests would otherwise queue
  // (in this process and in the upstream pools) for as long as the overload lasts. Shedding
  // happens before any work (authentication included), so a refused request costs little.
  let inFlight = 0;
  const streams = new Set<() => void>();
  fastify.addHook('preClose', async () => streams.forEach((end) => end()));
  // A handler resolves to the reply when it is streaming it (see relayStream).
  type Handler = (request: RawRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;
  const shedding =
    (handler: Handler): Handler =>
    async (request, reply) => {
      if (inFlight >= deps.maxInFlight) {
        request.requestId ??= newId('req');
        sendError(reply, request, overloaded());
        return undefined;
      }
      inFlight++;
      let held = true;
      request.releaseSlot = () => {
        if (held) inFlight--;
        held = false;
      };
      try {
        // A stream's handler resolves when the stream ends (the reply is a thenable).
        return await handler(request, reply);
      } finally {
        request.releaseSlot();
      }
    };

  const ensureInstalled = (service: ServiceName, path: string) => {
    if (deps.services && !deps.services.includes(service)) {
      throw new ApiError(
        'service_not_installed',
        `This installation does not include the ${service} service that serves ${path}.`,
      );
    }
  };

  const forward = async (
    request: RawRequest,
    reply: FastifyReply,
    service: ServiceName,
    context: AuthenticatedContext | PublicContext,
  ) => {
    ensureInstalled(service, request.url.split('?')[0]);
    const url = canonicalRequestTarget(request.url);
    // The access log line (written when the answer leaves) names the caller's account and key.
    request.paygrid = context;
    // The service's span continues the gateway's trace (docs/observability.md, traces).
    const traceparent = traceparentOf(request.span);
    const upstreamRequest = {
      method: request.method,
      url,
      headers: forwardHeaders(request),
      body: request.rawBody,
      context: traceparent ? Object.assign({}, context, { traceparent }) : context,
    };
    if (STREAM_ROUTES.has(`${request.method} ${url.split('?')[0]}`))
      return relayStream(
        reply,
        deps.upstream,
        service,
        upstreamRequest,
        () => request.releaseSlot?.(),
        streams,
      );
    relay(reply, await deps.upstream.request(service, upstreamRequest));
    return undefined;
  };

  const handleApi = async (request: RawRequest, reply: FastifyReply) => {
    try {
      request.requestId ??= newId('req');
      const authorization = request.headers.authorization;
      const match = typeof authorization === 'string' ? /^bearer +(\S+)$/i.exec(authorization) : null;
      if (!match) {
        throw new ApiError(
          'authentication_required',
          'You did not provide an API key. Send it as Authorization: Bearer <key>.',
        );
      }
      deps.rateLimits.checkAddress(request.ip, match[1]);
      let authenticated: AuthenticatedKey;
      try {
        authenticated = await deps.accounts.authenticate(match[1]);
      } catch (error) {
        deps.rateLimits.notAuthenticated(request.ip, error);
        throw error;
      }
      deps.rateLimits.authenticated(authenticated);
      // Every request with a valid key is charged, whatever its outcome (like Stripe's).
      await deps.rateLimits.charge(authenticated, reply);
      const { key, account, scopes } = authenticated;
      request.logAs = { account: account.id, livemode: key.livemode };
      // Every /v1 request needs a key (docs/api.md §2), so the route is looked up only for
      // an authenticated caller: an unknown URL without a key is a 401, with one a 404.
      const path = request.url.split('?')[0];
      const prefix = path.split('/')[2] ?? '';
      const owner = routeOwner(prefix);
      if (!owner)
        throw new ApiError('route_not_found', `Unrecognized request URL (${request.method}: ${path}).`);
      // What the installation lacks is said before what the account lacks: an account may
      // hold a grouping whose service this installation does not run.
      const service = routeService(owner, request.method, path);
      ensureInstalled(service, path);
      if (!groupingAllows(owner, account.groupings, request.method)) {
        throw new ApiError(
          'grouping_not_enabled',
          `This account does not have the ${owner.groupings.join(' or ')} grouping needed for /v1/${prefix}.`,
        );
      }
      if (
        request.body !== undefined &&
        request.method !== 'GET' &&
        !String(request.headers['content-type']).startsWith('application/json')
      ) {
        throw new ApiError('unsupported_media_type', 'Request bodies must be application/json.');
      }
      return await forward(request, reply, service, {
        kind: 'api',
        account: account.id,
        account_name: account.name,
        livemode: key.livemode,
        key_id: key.id,
        scopes,
        groupings: account.groupings,
        request_id: request.requestId,
        issued_at: Date.now(),
      });
    } catch (error) {
      const { error: apiError, unexpected } = toApiError(error);
      if (unexpected) deps.logger.error({ err: error, url: request.url }, 'gateway error');
      sendError(reply, request, apiError);
      return undefined;
    }
  };

  fastify.all('/v1/*', shedding(handleApi));

  // After the answer has left: an array push, off the request's path. A log tail's own
  // stream is not noted (it would be answered only when the tail stops).
  const requestLog = deps.requestLog;
  if (requestLog)
    fastify.addHook('onResponse', async (request: RawRequest, reply: FastifyReply) => {
      if (!request.logAs || !request.requestId) return;
      const path = request.url.split('?')[0].slice(0, 2048);
      if (path === '/v1/request-logs/stream') return;
      // Each field named: a leading spread costs ~1 us per field after it on Node 20 (finding 56).
      requestLog.note({
        account: request.logAs.account,
        livemode: request.logAs.livemode,
        request_id: request.requestId,
        method: request.method,
        path,
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime),
        created_at: new Date().toISOString(),
      });
    });

  for (const page of PUBLIC_PAGE_PREFIXES) {
    fastify.all(
      `/${page.prefix}/*`,
      shedding(async (request: RawRequest, reply: FastifyReply) => {
        try {
          request.requestId ??= newId('req');
          return await forward(request, reply, page.service, {
            kind: 'public',
            request_id: request.requestId,
            issued_at: Date.now(),
          });
        } catch (error) {
          sendError(reply, request, toApiError(error).error);
          return undefined;
        }
      }),
    );
  }
}
