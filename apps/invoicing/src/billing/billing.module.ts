// Wires subscriptions, the billing engine and test clocks into the invoicing service:
// src/invoicing.ts adds `billing.controllers` / `billing.providers` to its module, starts
// `billing.engine` and stops it on shutdown.

import type { Provider } from '@nestjs/common';
import type { ServiceRuntime } from '@paygrid/platform';
import type { InvoicesInternal } from '../invoices/invoices.internal';
import { Subscriptions1700000000340 } from '../migrations/1700000000340-subscriptions';
import { SubscriptionsController } from '../subscriptions/subscriptions.controller';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { TestClocksController } from '../test-clocks/test-clocks.controller';
import { TestClocksService, type TestClockOptions } from '../test-clocks/test-clocks.service';
import { BillingEngine, type BillingEngineOptions } from './billing-engine';

export const BILLING_MIGRATIONS = [Subscriptions1700000000340];

export interface Billing {
  engine: BillingEngine;
  subscriptions: SubscriptionsService;
  clocks: TestClocksService;
  controllers: (typeof SubscriptionsController | typeof TestClocksController)[];
  providers: Provider[];
}

export function createBilling(
  runtime: ServiceRuntime,
  invoices: InvoicesInternal,
  options: BillingEngineOptions & TestClockOptions = {},
): Billing {
  const logger = runtime.logger.child({ component: 'billing' });
  const engine = new BillingEngine(runtime.db, invoices, runtime.clock, logger, options);
  const subscriptions = new SubscriptionsService(runtime.db, engine, invoices);
  const clocks = new TestClocksService(runtime.db, runtime.clock, engine, invoices, logger, options);
  return {
    engine,
    subscriptions,
    clocks,
    controllers: [SubscriptionsController, TestClocksController],
    providers: [
      { provide: SubscriptionsService, useValue: subscriptions },
      { provide: TestClocksService, useValue: clocks },
    ],
  };
}
