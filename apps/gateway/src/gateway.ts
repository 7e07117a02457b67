// Assembles the gateway: its runtime (database, no bus), the accounts and keys, the admin
// API, health, and the /v1 proxy to the services.

import { Module, type DynamicModule } from '@nestjs/common';
import {
  createHttpApp,
  platformTablesMigration,
  RuntimeModule,
  startRuntime,
  type Logger,
} from '@paygrid/platform';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountsService } from './accounts/accounts.service';
import { LocalInvalidation, RedisInvalidation, type InvalidationChannel } from './accounts/invalidation';
import { AdminController } from './admin/admin.controller';
import { OPERATOR_TOKEN, OperatorGuard } from './admin/admin.guard';
import type { GatewayConfig } from './config';
import { GatewayHealthController } from './health.controller';
import { Accounts1700000000100 } from './migrations/1700000000100-accounts';
import { registerProxy } from './routing/proxy';
import { HttpUpstream, type Upstream } from './routing/upstream';
import { UPSTREAM } from './tokens';

export const GATEWAY_MIGRATIONS = [platformTablesMigration('gateway'), Accounts1700000000100];

@Module({})
class GatewayModule {
  static forRoot(deps: {
    runtime: import('@paygrid/platform').ServiceRuntime;
    accounts: AccountsService;
    upstream: Upstream;
    operatorToken: string;
  }): DynamicModule {
    return {
      module: GatewayModule,
      imports: [RuntimeModule.forRoot(deps.runtime, { health: false })],
      controllers: [AdminController, GatewayHealthController],
      providers: [
        { provide: AccountsService, useValue: deps.accounts },
        { provide: UPSTREAM, useValue: deps.upstream },
        { provide: OPERATOR_TOKEN, useValue: deps.operatorToken },
        OperatorGuard,
      ],
    };
  }
}

export interface Gateway {
  app: NestFastifyApplication;
  accounts: AccountsService;
  stop(): Promise<void>;
}

export async function createGateway(
  config: GatewayConfig,
  options: { upstream?: Upstream; logger?: Logger } = {},
): Promise<Gateway> {
  const runtime = await startRuntime({
    config,
    schema: 'gateway',
    migrations: GATEWAY_MIGRATIONS,
    topics: [],
    bus: 'none',
    logger: options.logger,
  });
  let invalidation: InvalidationChannel;
  if (config.redisUrl) {
    const redis = new RedisInvalidation(config.redisUrl);
    await redis.connect();
    invalidation = redis;
  } else {
    invalidation = new LocalInvalidation();
  }
  const accounts = new AccountsService(runtime.db, invalidation);
  const upstream = options.upstream ?? new HttpUpstream(config.upstreams, config.upstreamTimeoutMs);
  const app = await createHttpApp(
    GatewayModule.forRoot({ runtime, accounts, upstream, operatorToken: config.operatorToken }),
    runtime,
    {
      internalGuard: false,
      configure: (fastify) =>
        registerProxy(fastify, {
          accounts,
          upstream,
          internalSecret: config.internalSecret,
          logger: runtime.logger,
        }),
    },
  );
  return {
    app,
    accounts,
    async stop() {
      await app.close();
      await upstream.close();
      await invalidation.close();
      await runtime.stop();
    },
  };
}
