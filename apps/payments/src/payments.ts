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
import { Ledger1700000000210 } from './migrations/1700000000210-ledger';
import { PaymentLinks1700000000220 } from './migrations/1700000000220-payment-links';
import { CHECKOUT_SETTINGS, CheckoutController } from './payment-links/checkout.controller';
import { PaymentLinksController } from './payment-links/payment-links.controller';
import { PaymentLinksService } from './payment-links/payment-links.service';
import { SandboxConnector } from './connectors/sandbox.connector';
import { RefundsController } from './refunds/refunds.controller';
import { RefundsService } from './refunds/refunds.service';
import { TransactionsController } from './transactions/transactions.controller';
import { TransactionsService } from './transactions/transactions.service';

export const PAYMENTS_MIGRATIONS = [
  platformTablesMigration('payments'),
  idempotencyMigration('payments'),
  Merchants1700000000200,
  Ledger1700000000210,
  PaymentLinks1700000000220,
];

@Module({})
class PaymentsModule {
  static forRoot(runtime: ServiceRuntime, config: PaymentsConfig): DynamicModule {
    // Only the sandbox processor exists so far; live mode will use the one the operator
    // configures (issue 4, item 4). It is stateless, so one instance serves every request.
    const connector = new SandboxConnector();
    return {
      module: PaymentsModule,
      imports: [RuntimeModule.forRoot(runtime)],
      controllers: [
        MerchantsController,
        MerchantDecisionsController,
        TransactionsController,
        RefundsController,
        PaymentLinksController,
        CheckoutController,
      ],
      providers: [
        { provide: MerchantsService, useValue: new MerchantsService(runtime.db, runtime.clock) },
        {
          provide: TransactionsService,
          useValue: new TransactionsService(runtime.db, runtime.clock, connector),
        },
        {
          provide: PaymentLinksService,
          useValue: new PaymentLinksService(runtime.db, runtime.clock, config.publicBaseUrl),
        },
        {
          provide: CHECKOUT_SETTINGS,
          useValue: { secret: config.internalSecret, clock: runtime.clock },
        },
        { provide: RefundsService, useValue: new RefundsService(runtime.db, runtime.clock, connector) },
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
  const app = await createHttpApp(PaymentsModule.forRoot(runtime, config), runtime);
  return {
    app,
    runtime,
    async stop() {
      await app.close();
      await runtime.stop();
    },
  };
}
