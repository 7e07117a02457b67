// Assembles the invoicing service: runtime (own schema), the payments feed consumer, HTTP.

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
import type { InvoicingConfig } from './config';
import { CustomersController } from './customers/customers.controller';
import { CustomersService } from './customers/customers.service';
import { MailService } from './mail/mail.service';
import { Customers1700000000310 } from './migrations/1700000000310-customers';
import { MailQueue1700000000330 } from './migrations/1700000000330-mail-queue';
import { PaymentFacts1700000000300 } from './migrations/1700000000300-payment-facts';
import { startPaymentsFeed } from './payments-feed/payments-feed';

export const INVOICING_MIGRATIONS = [
  platformTablesMigration('invoicing'),
  idempotencyMigration('invoicing'),
  PaymentFacts1700000000300,
  Customers1700000000310,
  MailQueue1700000000330,
];

/** Built once per service and handed to the modules (and, through InvoicingService, to tests). */
export interface InvoicingParts {
  mail: MailService;
}

@Module({})
class InvoicingModule {
  static forRoot(runtime: ServiceRuntime, parts: InvoicingParts): DynamicModule {
    return {
      module: InvoicingModule,
      imports: [RuntimeModule.forRoot(runtime)],
      controllers: [CustomersController],
      providers: [
        { provide: CustomersService, useValue: new CustomersService(runtime.db, runtime.clock) },
        { provide: MailService, useValue: parts.mail },
      ],
    };
  }
}

export interface InvoicingService {
  app: NestFastifyApplication;
  runtime: ServiceRuntime;
  mail: MailService;
  stop(): Promise<void>;
}

export async function createInvoicing(
  config: InvoicingConfig,
  options: { bus?: EventBus; logger?: Logger; clock?: Clock } = {},
): Promise<InvoicingService> {
  const runtime = await startRuntime({
    config,
    schema: 'invoicing',
    migrations: INVOICING_MIGRATIONS,
    topics: [TOPICS.invoicingEvents, TOPICS.paymentsEvents, TOPICS.paymentsCommands],
    ...options,
  });
  const mail = new MailService(runtime.db, runtime.clock, runtime.logger, config);
  const parts: InvoicingParts = { mail };
  const app = await createHttpApp(InvoicingModule.forRoot(runtime, parts), runtime);
  mail.start();
  await startPaymentsFeed(runtime.consumer);
  return {
    app,
    runtime,
    mail,
    async stop() {
      await app.close();
      await mail.stop();
      await runtime.stop();
    },
  };
}
