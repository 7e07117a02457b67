// Assembles the payments service on the platform's composition root (createService): its
// migrations (own schema, outbox to payments.events.v1), its services, its controllers (HTTP,
// and the consumers: @EventPattern handlers on InboxTransport) and its background jobs.

import { TOPICS } from '@paygrid/contracts';
import {
  createService,
  idempotencyMigration,
  outboxTraceContextMigration,
  platformTablesMigration,
  type Clock,
  type Service,
  type ServiceAssembly,
  type ServiceDeps,
  type ServiceRuntime,
} from '@paygrid/platform';
import { CheckoutFormTokens } from './card-payments/checkout-form-token';
import { InvoiceFormTokens } from './card-payments/invoice-form-token';
import { AuthenticationReturns } from './card-payments/authentication-return';
import {
  AUTHENTICATION,
  AuthenticationController,
  type Authentication,
} from './card-payments/authentication.controller';
import { mandateOfLatePayment, PayByCard } from './card-payments/pay-by-card';
import { AccountProfilesConsumer } from './account-profiles/account-profiles.consumer';
import { BrandController } from './account-profiles/brand.controller';
import { SettleAuthentication } from './card-payments/settle-authentication';
import type { PaymentsConfig } from './config';
import { MerchantDecisionsController } from './merchants/merchant-decisions.controller';
import { MerchantDecisionsService } from './merchants/merchant-decisions.service';
import { MerchantsController } from './merchants/merchants.controller';
import { MerchantsService } from './merchants/merchants.service';
import { Merchants1700000000200 } from './migrations/1700000000200-merchants';
import { Ledger1700000000210 } from './migrations/1700000000210-ledger';
import { PaymentLinks1700000000220 } from './migrations/1700000000220-payment-links';
import { Mandates1700000000230 } from './migrations/1700000000230-mandates';
import { ProcessorConnections1700000000240 } from './migrations/1700000000240-processor-connections';
import { AccountProfiles1700000000290 } from './migrations/1700000000290-account-profiles';
import { ReceiptEmail1700000000295 } from './migrations/1700000000295-receipt-email';
import { PendingMandateTerms1700000000300 } from './migrations/1700000000300-pending-mandate-terms';
import { SandboxDisputes1700000000310 } from './migrations/1700000000310-sandbox-disputes';
import { ProfileReceiptSwitch1700000000372 } from './migrations/1700000000372-profile-receipt-switch';
import { RefundCheckBackoff1700000000380 } from './migrations/1700000000380-refund-check-backoff';
import { CustomerDirectory1700000000280 } from './migrations/1700000000280-customer-directory';
import { CheckoutInFlightIndex1700000000270 } from './migrations/1700000000270-checkout-in-flight-index';
import { RequiresAction1700000000255 } from './migrations/1700000000255-requires-action';
import { ProcessorEvents1700000000260 } from './migrations/1700000000260-processor-events';
import { DisputesController } from './disputes/disputes.controller';
import { DisputesService } from './disputes/disputes.service';
import { ProcessorHooksController } from './processor-events/processor-hooks.controller';
import { ProcessorEventsService } from './processor-events/processor-events.service';
import { MandatesController } from './mandates/mandates.controller';
import { MandateCommandsConsumer } from './mandates/mandate-commands.consumer';
import { MandatesService } from './mandates/mandates.service';
import { CARD_UPDATE_SETTINGS, CardUpdateController } from './card-updates/card-update.controller';
import { CardUpdateReturns } from './card-updates/card-update-return';
import { UpdateMandateCard } from './card-updates/update-card';
import { MandatePage } from './mandate-pages/mandate-page';
import { MANDATE_PAGE_SETTINGS, MandatePageController } from './mandate-pages/mandate-page.controller';
import {
  InvoicePaymentController,
  INVOICE_PAYMENT_SETTINGS,
} from './invoice-payments/invoice-payment.controller';
import { PaymentsJobs } from './jobs/payments-jobs';
import { OffsetClock, TEST_CLOCK, TestClockController } from './jobs/test-clock';
import { CHECKOUT_SETTINGS, CheckoutController } from './payment-links/checkout.controller';
import { PaymentLinksController } from './payment-links/payment-links.controller';
import { PaymentLinksService } from './payment-links/payment-links.service';
import { ConnectorRouter } from './connectors/connector-router';
import { crashAfterCharge } from './connectors/crash-after-charge';
import { StripeProcessor } from './connectors/stripe';
import { CustomerDirectory } from './customers/customer-directory';
import { CustomerDirectoryConsumer } from './customers/customer-directory.consumer';
import { SandboxChallenges } from './connectors/sandbox-challenges';
import { SandboxConnector } from './connectors/sandbox.connector';
import { RefundsController } from './refunds/refunds.controller';
import { RefundsService } from './refunds/refunds.service';
import { TransactionsController } from './transactions/transactions.controller';
import { TransactionsService } from './transactions/transactions.service';
import type { TransactionRow } from './transactions/transaction';
import { ProcessorConnectionsController } from './processor-connections/processor-connections.controller';
import { ProcessorConnectionsOperatorController } from './processor-connections/processor-connections-operator.controller';
import { ProcessorConnectionsService } from './processor-connections/processor-connections.service';

export const PAYMENTS_MIGRATIONS = [
  platformTablesMigration('payments'),
  idempotencyMigration('payments'),
  Merchants1700000000200,
  Ledger1700000000210,
  PaymentLinks1700000000220,
  Mandates1700000000230,
  ProcessorConnections1700000000240,
  // The outbox row's trace context (docs/observability.md, traces).
  outboxTraceContextMigration('payments', 1700000000250),
  RequiresAction1700000000255,
  ProcessorEvents1700000000260,
  CheckoutInFlightIndex1700000000270,
  CustomerDirectory1700000000280,
  AccountProfiles1700000000290,
  ReceiptEmail1700000000295,
  PendingMandateTerms1700000000300,
  SandboxDisputes1700000000310,
  ProfileReceiptSwitch1700000000372,
  RefundCheckBackoff1700000000380,
];

/** The services of one instance, built once from the runtime (and the clock it runs on). */
function buildServices(runtime: ServiceRuntime, config: PaymentsConfig, clock: Clock) {
  // Test mode charges the stateless sandbox processor (one instance serves every request);
  // live mode only ever charges the account's active live processor connection, and an
  // account without one is refused (connectors/connector-router.ts).
  const processorConnections = new ProcessorConnectionsService(
    runtime.db,
    clock,
    { stripe: new StripeProcessor(config.stripeApi) },
    config.processorSecrets,
  );
  // The sandbox's only state: payers' decisions on its 3-D Secure challenge page.
  const challenges = new SandboxChallenges(runtime.db, clock);
  // Test only: a process that dies right after the processor answers (config.ts refuses it in
  // production), for the crash suite.
  const live = config.testExitAfterCharge
    ? crashAfterCharge(processorConnections, () => process.kill(process.pid, 'SIGKILL'))
    : processorConnections;
  const connectors = new ConnectorRouter(new SandboxConnector(challenges), live);
  const merchants = new MerchantsService(runtime.db, clock);
  const links = new PaymentLinksService(runtime.db, clock, config.publicBaseUrl);
  // A link paid after 3-D Secure (or recovered) completes when the payment is recorded.
  const transactions: TransactionsService = new TransactionsService(
    runtime.db,
    clock,
    connectors,
    {
      // A card-keeping payment settled after 3-D Secure creates its mandate then (mandates is
      // built below; this runs only once a payment is recorded, long after).
      createMandate: (tx, row, credential): Promise<TransactionRow> =>
        mandateOfLatePayment(mandates, tx, row, credential),
      succeeded: async (tx, row) => {
        if (row.payment_link) await links.recordCompletion(tx, row.payment_link);
      },
      // The sandbox's disputed card: no connection reported it (test mode only).
      disputeReported: async (tx, row, dispute): Promise<void> => {
        await disputes.apply(
          tx,
          { connection: null, account: row.account_id, livemode: row.livemode },
          dispute,
          clock.now(),
        );
      },
    },
    config.authenticationTimeoutMs,
  );
  const refunds = new RefundsService(runtime.db, clock, connectors);
  const mandates = new MandatesService(
    runtime.db,
    clock,
    connectors,
    transactions,
    runtime.logger.child({ component: 'mandates' }),
  );
  const returns = new AuthenticationReturns(config.internalSecret, config.publicBaseUrl, clock);
  const payByCard = new PayByCard(transactions, mandates, returns);
  const authentication: Authentication = {
    returns,
    settle: new SettleAuthentication(transactions),
    challenges,
    secret: config.internalSecret,
    now: () => clock.now(),
  };
  const checkoutForms = new CheckoutFormTokens(runtime.db, clock, links);
  const invoiceForms = new InvoiceFormTokens(runtime.db, clock);
  const disputes = new DisputesService(runtime.db, clock);
  const processorEvents = new ProcessorEventsService({
    db: runtime.db,
    clock,
    transactions,
    connections: processorConnections,
    refunds,
    disputes,
    logger: runtime.logger.child({ component: 'processor-events' }),
  });
  const jobs = new PaymentsJobs(
    { mandates, links, transactions, refunds, logger: runtime.logger.child({ component: 'jobs' }) },
    config.jobsIntervalMs,
  );
  const customers = new CustomerDirectory(runtime.db);
  return {
    authentication,
    connectors,
    processorConnections,
    merchants,
    transactions,
    links,
    refunds,
    disputes,
    processorEvents,
    mandates,
    payByCard,
    checkoutForms,
    invoiceForms,
    jobs,
    customers,
  };
}
type Services = ReturnType<typeof buildServices>;

/** What GET /health says about live payments (the gateway's /health shows it under payments). */
async function liveProcessorHealth(connectors: ConnectorRouter): Promise<Record<string, unknown>> {
  const accounts = await connectors.configuredLiveAccounts();
  return {
    live_processors: {
      configured_accounts: accounts,
      live_payments:
        accounts === 0
          ? 'refused for every account: no payment processor is connected (409 processor_not_configured)'
          : 'taken only by accounts with a connected processor; the others are refused (409 processor_not_configured)',
    },
  };
}

/** The controllers (HTTP, and the consumers on InboxTransport) and what they are given. */
function paymentsModule(
  runtime: ServiceRuntime,
  config: PaymentsConfig,
  services: Services,
  clock: Clock,
  testClock: OffsetClock | undefined,
): Pick<ServiceAssembly<object>, 'controllers' | 'providers'> {
  const { connectors, processorConnections, transactions, links, refunds, mandates, jobs, customers } =
    services;
  return {
    controllers: [
      MerchantsController,
      MerchantDecisionsController,
      TransactionsController,
      RefundsController,
      DisputesController,
      ProcessorHooksController,
      PaymentLinksController,
      CheckoutController,
      BrandController,
      AuthenticationController,
      InvoicePaymentController,
      CardUpdateController,
      MandatePageController,
      MandatesController,
      ProcessorConnectionsController,
      ProcessorConnectionsOperatorController,
      // Exists only when the operator asked for a test clock (PAYMENTS_TEST_CLOCK=true).
      ...(testClock ? [TestClockController] : []),
      // Consumers (InboxTransport): @EventPattern handlers, no HTTP routes.
      MandateCommandsConsumer,
      AccountProfilesConsumer,
      CustomerDirectoryConsumer,
    ],
    providers: [
      { provide: ConnectorRouter, useValue: connectors },
      { provide: ProcessorConnectionsService, useValue: processorConnections },
      { provide: MerchantsService, useValue: services.merchants },
      { provide: TransactionsService, useValue: transactions },
      { provide: PaymentLinksService, useValue: links },
      { provide: MandatesService, useValue: mandates },
      { provide: PayByCard, useValue: services.payByCard },
      { provide: AUTHENTICATION, useValue: services.authentication },
      { provide: CheckoutFormTokens, useValue: services.checkoutForms },
      { provide: InvoiceFormTokens, useValue: services.invoiceForms },
      { provide: CustomerDirectory, useValue: customers },
      { provide: PaymentsJobs, useValue: jobs },
      { provide: CHECKOUT_SETTINGS, useValue: { secret: config.internalSecret, clock } },
      { provide: INVOICE_PAYMENT_SETTINGS, useValue: { secret: config.internalSecret, clock } },
      { provide: CARD_UPDATE_SETTINGS, useValue: { secret: config.internalSecret, clock } },
      {
        provide: UpdateMandateCard,
        useValue: new UpdateMandateCard(
          mandates,
          connectors,
          clock,
          new CardUpdateReturns(config.internalSecret, config.publicBaseUrl, clock),
        ),
      },
      { provide: MANDATE_PAGE_SETTINGS, useValue: { secret: config.internalSecret, clock } },
      { provide: MandatePage, useValue: new MandatePage(mandates) },
      ...(testClock ? [{ provide: TEST_CLOCK, useValue: testClock }] : []),
      { provide: RefundsService, useValue: refunds },
      { provide: DisputesService, useValue: services.disputes },
      { provide: ProcessorEventsService, useValue: services.processorEvents },
      {
        provide: MerchantDecisionsService,
        useValue: new MerchantDecisionsService(runtime.db, clock, services.merchants),
      },
    ],
  };
}

export type PaymentsService = Service<{
  /** The background jobs (tests run a pass with runOnce()). */
  jobs: PaymentsJobs;
}>;

export function createPayments(config: PaymentsConfig, deps: ServiceDeps = {}): Promise<PaymentsService> {
  return createService({
    config,
    schema: 'payments',
    migrations: PAYMENTS_MIGRATIONS,
    // invoicing.events.v1: account.updated (the business profile's projection) and
    // customer.created|deleted (the customer directory).
    topics: [TOPICS.paymentsEvents, TOPICS.paymentsCommands, TOPICS.invoicingEvents],
    ...deps,
    assemble(runtime) {
      const testClock = config.testClock ? new OffsetClock(runtime.clock) : undefined;
      if (testClock)
        runtime.logger.warn('PAYMENTS_TEST_CLOCK is on: the operator context can move this clock');
      if (config.testExitAfterCharge) {
        runtime.logger.warn(
          'PAYMENTS_TEST_EXIT_AFTER_CHARGE is on: the process kills itself after every live charge',
        );
      }
      const clock = testClock ?? runtime.clock;
      const services = buildServices(runtime, config, clock);
      const { jobs } = services;
      return {
        ...paymentsModule(runtime, config, services, clock, testClock),
        platformRoutes: { healthDetails: () => liveProcessorHealth(services.connectors) },
        // Stopped even when the timer is off: stop() waits for a pass a test ran by hand.
        background: [config.jobsEnabled ? jobs : () => jobs.stop()],
        handle: { jobs },
      };
    },
  });
}
