// Assembles the gateway on the platform's composition root (createService): its migrations
// (database, no bus), the accounts and keys, the admin API, health, and the /v1 proxy to the
// services.

import {
  createService,
  platformTablesMigration,
  type Logger,
  type Metrics,
  type Service,
} from '@paygrid/platform';
import { AccountsService } from './accounts/accounts.service';
import { LocalInvalidation, RedisInvalidation, type InvalidationChannel } from './accounts/invalidation';
import { AccountProfilesAdminController } from './admin/account-profiles.controller';
import { AdminController } from './admin/admin.controller';
import { OPERATOR_TOKEN, OperatorGuard } from './admin/admin.guard';
import { MerchantDecisionsController } from './admin/merchant-decisions.controller';
import { LiveProcessorCoverage } from './admin/live-processors';
import { OperatorForwarder } from './admin/operator-forwarder';
import { ProcessorConnectionsAdminController } from './admin/processor-connections.controller';
import type { GatewayConfig } from './config';
import { GatewayHealthController } from './health.controller';
import { Accounts1700000000100 } from './migrations/1700000000100-accounts';
import { ApiReferenceController } from './openapi/api-reference.controller';
import { OpenApiDocumentService } from './openapi/openapi.document';
import { ApiRateLimits } from './rate-limit/api-rate-limits';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './rate-limit/rate-limiter';
import { EMBEDDED_SHIPPER, RequestLogShipper, SHIPPER_DEFAULTS } from './request-log/request-log-shipper';
import { registerProxy } from './routing/proxy';
import { HttpUpstream, type Upstream } from './routing/upstream';
import { registerSecurityHeaders } from './security-headers';
import { INSTALLED_SERVICES, UPSTREAM } from './tokens';

export const GATEWAY_MIGRATIONS = [platformTablesMigration('gateway'), Accounts1700000000100];

export type Gateway = Service<{ accounts: AccountsService }>;

/** Cache invalidation of keys across replicas: Redis when there is one (distributed), else this process. */
async function invalidationChannel(config: GatewayConfig, logger: Logger): Promise<InvalidationChannel> {
  if (!config.redisUrl) return new LocalInvalidation();
  const redis = new RedisInvalidation(config.redisUrl, logger);
  await redis.connect();
  return redis;
}

/** Shared buckets in Redis when there is one (distributed), else in this process. */
async function rateLimiter(config: GatewayConfig, logger: Logger): Promise<RateLimiter> {
  if (!config.redisUrl) return new MemoryRateLimiter();
  const limiter = new RedisRateLimiter(config.redisUrl, logger.child({ component: 'rate-limit' }));
  await limiter.ready();
  return limiter;
}

export function createGateway(
  config: GatewayConfig,
  options: { upstream?: Upstream; logger?: Logger; metrics?: Metrics } = {},
): Promise<Gateway> {
  return createService({
    config,
    schema: 'gateway',
    migrations: GATEWAY_MIGRATIONS,
    topics: [],
    bus: 'none',
    logger: options.logger,
    metrics: options.metrics,
    async assemble(runtime) {
      const invalidation = await invalidationChannel(config, runtime.logger);
      const accounts = new AccountsService(runtime.db, invalidation);
      const rateLimits = new ApiRateLimits(
        await rateLimiter(config, runtime.logger),
        config.rateLimits,
        config.authFailuresPerSecond,
      );
      const rejections = runtime.metrics.counter(
        'paygrid_rate_limit_rejections_total',
        "Requests answered 429 rate_limited, by limit: a key's quota (key) or an address's failed authentications (failed_auth).",
        ['limit'],
      );
      for (const limit of ['key', 'failed_auth']) rejections.inc({ limit }, 0);
      rateLimits.onRejected = (limit) => rejections.inc({ limit });
      const upstream =
        options.upstream ??
        new HttpUpstream(config.upstreams, config.upstreamTimeoutMs, config.internalSecret);
      const document = new OpenApiDocumentService(upstream, config.publicBaseUrl, config.services);
      const forwarder = new OperatorForwarder(upstream);
      // The request log lives in the webhooks service (GET /v1/request-logs); none without it.
      const requestLog = config.services.includes('webhooks')
        ? new RequestLogShipper(
            forwarder,
            runtime.logger.child({ component: 'request-log' }),
            runtime.metrics,
            config.mode === 'embedded' ? EMBEDDED_SHIPPER : SHIPPER_DEFAULTS,
          )
        : undefined;
      return {
        controllers: [
          AdminController,
          AccountProfilesAdminController,
          MerchantDecisionsController,
          ProcessorConnectionsAdminController,
          GatewayHealthController,
          ApiReferenceController,
        ],
        providers: [
          { provide: AccountsService, useValue: accounts },
          { provide: UPSTREAM, useValue: upstream },
          { provide: INSTALLED_SERVICES, useValue: config.services },
          { provide: OPERATOR_TOKEN, useValue: config.operatorToken },
          { provide: OperatorForwarder, useValue: forwarder },
          { provide: LiveProcessorCoverage, useValue: new LiveProcessorCoverage(forwarder, config.services) },
          OperatorGuard,
          { provide: OpenApiDocumentService, useValue: document },
        ],
        // The gateway serves the merged document (ApiReferenceController), not a fragment of its own.
        platformRoutes: { health: false, openapi: false },
        http: {
          internalGuard: false,
          accessLog: true,
          configure: (fastify) => {
            registerSecurityHeaders(fastify, { publicBaseUrl: config.publicBaseUrl });
            registerProxy(fastify, {
              accounts,
              upstream,
              rateLimits,
              logger: runtime.logger,
              maxInFlight: config.maxInFlight,
              document,
              services: config.services,
              requestLog,
            });
          },
        },
        // What the proxied requests in flight still use.
        resources: [
          () => requestLog?.close(),
          () => upstream.close(),
          () => rateLimits.close(),
          () => invalidation.close(),
        ],
        handle: { accounts },
      };
    },
  });
}
