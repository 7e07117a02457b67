// Assembles the gateway: its runtime (database, no bus), the accounts and keys, the admin
// API, health, and the /v1 proxy to the services.

import type { ServiceName } from '@paygrid/contracts';
import { Module, type DynamicModule } from '@nestjs/common';
import {
  createHttpApp,
  platformTablesMigration,
  RuntimeModule,
  startRuntime,
  type Logger,
  type Metrics,
} from '@paygrid/platform';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
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
import { RequestLogShipper } from './request-log/request-log-shipper';
import { registerProxy } from './routing/proxy';
import { HttpUpstream, type Upstream } from './routing/upstream';
import { registerSecurityHeaders } from './security-headers';
import { INSTALLED_SERVICES, UPSTREAM } from './tokens';

export const GATEWAY_MIGRATIONS = [platformTablesMigration('gateway'), Accounts1700000000100];

@Module({})
class GatewayModule {
  static forRoot(deps: {
    runtime: import('@paygrid/platform').ServiceRuntime;
    accounts: AccountsService;
    upstream: Upstream;
    operatorToken: string;
    internalSecret: string;
    publicBaseUrl: string;
    document: OpenApiDocumentService;
    services: readonly ServiceName[];
    forwarder: OperatorForwarder;
  }): DynamicModule {
    return {
      module: GatewayModule,
      // The gateway serves the merged document (ApiReferenceController), not a fragment of its own.
      imports: [RuntimeModule.forRoot(deps.runtime, { health: false, openapi: false })],
      controllers: [
        AdminController,
        AccountProfilesAdminController,
        MerchantDecisionsController,
        ProcessorConnectionsAdminController,
        GatewayHealthController,
        ApiReferenceController,
      ],
      providers: [
        { provide: AccountsService, useValue: deps.accounts },
        { provide: UPSTREAM, useValue: deps.upstream },
        { provide: INSTALLED_SERVICES, useValue: deps.services },
        { provide: OPERATOR_TOKEN, useValue: deps.operatorToken },
        { provide: OperatorForwarder, useValue: deps.forwarder },
        {
          provide: LiveProcessorCoverage,
          useValue: new LiveProcessorCoverage(deps.forwarder, deps.services),
        },
        OperatorGuard,
        { provide: OpenApiDocumentService, useValue: deps.document },
      ],
    };
  }
}

export interface Gateway {
  app: NestFastifyApplication;
  accounts: AccountsService;
  metrics: Metrics;
  stop(): Promise<void>;
}

export async function createGateway(
  config: GatewayConfig,
  options: { upstream?: Upstream; logger?: Logger; metrics?: Metrics } = {},
): Promise<Gateway> {
  const runtime = await startRuntime({
    config,
    schema: 'gateway',
    migrations: GATEWAY_MIGRATIONS,
    topics: [],
    bus: 'none',
    logger: options.logger,
    metrics: options.metrics,
  });
  let invalidation: InvalidationChannel;
  if (config.redisUrl) {
    const redis = new RedisInvalidation(config.redisUrl, runtime.logger);
    await redis.connect();
    invalidation = redis;
  } else {
    invalidation = new LocalInvalidation();
  }
  const accounts = new AccountsService(runtime.db, invalidation);
  // Shared buckets in Redis when there is one (distributed), else in this process.
  let limiter: RateLimiter;
  if (config.redisUrl) {
    const redisLimiter = new RedisRateLimiter(
      config.redisUrl,
      runtime.logger.child({ component: 'rate-limit' }),
    );
    await redisLimiter.ready();
    limiter = redisLimiter;
  } else {
    limiter = new MemoryRateLimiter();
  }
  const rateLimits = new ApiRateLimits(limiter, config.rateLimits, config.authFailuresPerSecond);
  const rejections = runtime.metrics.counter(
    'paygrid_rate_limit_rejections_total',
    "Requests answered 429 rate_limited, by limit: a key's quota (key) or an address's failed authentications (failed_auth).",
    ['limit'],
  );
  for (const limit of ['key', 'failed_auth']) rejections.inc({ limit }, 0);
  rateLimits.onRejected = (limit) => rejections.inc({ limit });
  const upstream = options.upstream ?? new HttpUpstream(config.upstreams, config.upstreamTimeoutMs);
  const document = new OpenApiDocumentService(upstream, config.publicBaseUrl, config.services);
  const forwarder = new OperatorForwarder(upstream, config.internalSecret);
  // The request log lives in the webhooks service (GET /v1/request-logs); none without it.
  const requestLog = config.services.includes('webhooks')
    ? new RequestLogShipper(forwarder, runtime.logger.child({ component: 'request-log' }), runtime.metrics)
    : undefined;
  const app = await createHttpApp(
    GatewayModule.forRoot({
      runtime,
      accounts,
      upstream,
      operatorToken: config.operatorToken,
      internalSecret: config.internalSecret,
      publicBaseUrl: config.publicBaseUrl,
      document,
      services: config.services,
      forwarder,
    }),
    runtime,
    {
      internalGuard: false,
      accessLog: true,
      configure: (fastify) => {
        registerSecurityHeaders(fastify, { publicBaseUrl: config.publicBaseUrl });
        registerProxy(fastify, {
          accounts,
          upstream,
          rateLimits,
          internalSecret: config.internalSecret,
          logger: runtime.logger,
          maxInFlight: config.maxInFlight,
          document,
          services: config.services,
          requestLog,
        });
      },
    },
  );
  return {
    app,
    accounts,
    metrics: runtime.metrics,
    async stop() {
      await app.close();
      await requestLog?.close();
      await upstream.close();
      await rateLimits.close();
      await invalidation.close();
      await runtime.stop();
    },
  };
}
