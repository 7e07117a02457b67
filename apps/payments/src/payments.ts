// Assembles the payments service: runtime (own schema, outbox to payments.events.v1) and
// its HTTP modules.

import { Module, type DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TOPICS } from '@paygrid/contracts';
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
import type { PaymentsConfig } from './config';
import { MerchantDecisionsController } from './merchants/merchant-decisions.controller';
import { MerchantDecisionsService } from './merchants/merchant-decisions.service';
import { MerchantsController } from './merchants/merchants.controller';
import { MerchantsService } from './merchants/merchants.service';
import { Merchants1700000000200 } from './migrations/1700000000200-merchants';

export const PAYMENTS_MIGRATIONS = [
  platformTablesMigration('payments'),
  idempotencyMigration('payments'),
  Merchants1700000000200,
];

@Module({})
class PaymentsModule {
  static forRoot(runtime: ServiceRuntime): DynamicModule {
    return {
      module: PaymentsModule,
      imports: [RuntimeModule.forRoot(runtime)],
      controllers: [MerchantsController, MerchantDecisionsController],
      providers: [
        { provide: MerchantsService, useValue: new MerchantsService(runtime.db, runtime.clock) },
        {
          provide: MerchantDecisionsService,
          inject: [MerchantsService],
          useFactory: (merchants: MerchantsService) =>
            new MerchantDecisionsService(runtime.db, runtime.clock, merchants),
        },
      ],
    };
  }
}

export interface PaymentsService {
  app: NestFastifyApplication;
  runtime: ServiceRuntime;
  stop(): Promise<void>;
}

export async function createPayments(
  config: PaymentsConfig,
  options: { bus?: EventBus; logger?: Logger; clock?: Clock } = {},
): Promise<PaymentsService> {
  const runtime = await startRuntime({
    config,
    schema: 'payments',
    migrations: PAYMENTS_MIGRATIONS,
    topics: [TOPICS.paymentsEvents, TOPICS.paymentsCommands],
    ...options,
  });
  const app = await createHttpApp(PaymentsModule.forRoot(runtime), runtime);
  return {
    app,
    runtime,
    async stop() {
      await app.close();
      await runtime.stop();
    },
  };
}
