// Assembles the webhooks service: runtime (own schema), the event log consumer and HTTP.

import { Module, type DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EVENT_TOPICS } from '@paygrid/contracts';
import {
  createHttpApp,
  idempotencyMigration,
  platformTablesMigration,
  RuntimeModule,
  startRuntime,
  type Clock,
  type EventBus,
  type Logger,
  type ServiceRuntime,
} from '@paygrid/platform';
import type { WebhooksConfig } from './config';
import { EventLog } from './events/event-log';
import { EventsController } from './events/events.controller';
import { Events1700000000400 } from './migrations/1700000000400-events';

export const WEBHOOKS_MIGRATIONS = [
  platformTablesMigration('webhooks'),
  idempotencyMigration('webhooks'),
  Events1700000000400,
];

@Module({})
class WebhooksModule {
  static forRoot(runtime: ServiceRuntime, eventLog: EventLog): DynamicModule {
    return {
      module: WebhooksModule,
      imports: [RuntimeModule.forRoot(runtime)],
      controllers: [EventsController],
      providers: [{ provide: EventLog, useValue: eventLog }],
    };
  }
}

export interface WebhooksService {
  app: NestFastifyApplication;
  runtime: ServiceRuntime;
  eventLog: EventLog;
  stop(): Promise<void>;
}

export async function createWebhooks(
  config: WebhooksConfig,
  options: { bus?: EventBus; logger?: Logger; clock?: Clock } = {},
): Promise<WebhooksService> {
  const runtime = await startRuntime({
    config,
    schema: 'webhooks',
    migrations: WEBHOOKS_MIGRATIONS,
    topics: EVENT_TOPICS,
    ...options,
  });
  const eventLog = new EventLog(runtime.db);
  const app = await createHttpApp(WebhooksModule.forRoot(runtime, eventLog), runtime);
  await eventLog.start(runtime.consumer);
  const pruner = setInterval(() => {
    eventLog
      .prune(runtime.clock.now())
      .catch((err: unknown) => runtime.logger.error({ err }, 'event log prune failed'));
  }, 3_600_000);
  pruner.unref();
  return {
    app,
    runtime,
    eventLog,
    async stop() {
      clearInterval(pruner);
      await app.close();
      await runtime.stop();
    },
  };
}
