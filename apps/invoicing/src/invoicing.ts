// Assembles the invoicing service on the platform's composition root (createService): its
// migrations (own schema), its services, its controllers (HTTP, and the payments feed
// consumer: an @EventPattern handler on InboxTransport), and its timers (the mail worker, the
// billing engine, the estimate expiry and overdue sweeps).

import { TOPICS } from '@paygrid/contracts';
import {
  createService,
  idempotencyMigration,
  outboxTraceContextMigration,
  Periodic,
  platformTablesMigration,
  type Service,
  type ServiceAssembly,
  type ServiceDeps,
  type ServiceRuntime,
} from '@paygrid/platform';
import {
  AccountBrandingController,
  AccountController,
  AccountProfileOperatorController,
} from './account/account.controller';
import { AccountProfileService } from './account/account.service';
import { AccountProfiles1700000000352 } from './migrations/1700000000352-account-profiles';
import { CustomerPortal1700000000367 } from './migrations/1700000000367-customer-portal';
import { ReceiptLocales1700000000371 } from './migrations/1700000000371-receipt-locales';
import { BILLING_MIGRATIONS, createBilling, type Billing } from './billing/billing.module';
import { registerInvoicingMetrics } from './invoicing.metrics';
import type { InvoicingConfig } from './config';
import { CustomersController } from './customers/customers.controller';
import { CustomersService } from './customers/customers.service';
import { InvoiceDocumentsService } from './documents/invoice-documents';
import { EstimatesController } from './estimates/estimates.controller';
import { EstimatesService, EXPIRY_SWEEP_MS } from './estimates/estimates.service';
import { QUOTE_PAGE_SETTINGS, QuotePageController } from './estimates/quote-page.controller';
import { INVOICE_PAGE_SETTINGS, InvoicePageController } from './invoices/invoice-page.controller';
import { InvoicesController } from './invoices/invoices.controller';
import { INVOICES_INTERNAL } from './invoices/invoices.internal';
import { InvoicesService, OVERDUE_SWEEP_MS } from './invoices/invoices.service';
import { MailService } from './mail/mail.service';
import { Customers1700000000310 } from './migrations/1700000000310-customers';
import { Invoices1700000000320 } from './migrations/1700000000320-invoices';
import { MailQueue1700000000330 } from './migrations/1700000000330-mail-queue';
import { Estimates1700000000331 } from './migrations/1700000000331-estimates';
import { PaymentFacts1700000000300 } from './migrations/1700000000300-payment-facts';
import { Receipts1700000000360 } from './migrations/1700000000360-receipts';
import { ReceiptsController } from './receipts/receipts.controller';
import { ReceiptsService } from './receipts/receipts.service';
import { PORTAL_SETTINGS, PortalPageController } from './portal/portal-page.controller';
import { PortalSessions } from './portal/portal-sessions';
import { PortalSessionsController } from './portal/portal-sessions.controller';
import { PortalService } from './portal/portal.service';
import { startPdfThreads } from './documents/pdf-rendering';
import { PaymentsFeedConsumer } from './payments-feed/payments-feed.consumer';

export const INVOICING_MIGRATIONS = [
  platformTablesMigration('invoicing'),
  idempotencyMigration('invoicing'),
  PaymentFacts1700000000300,
  Customers1700000000310,
  Invoices1700000000320,
  MailQueue1700000000330,
  Estimates1700000000331,
  ...BILLING_MIGRATIONS,
  // The outbox row's trace context (docs/observability.md, traces).
  outboxTraceContextMigration('invoicing', 1700000000350),
  AccountProfiles1700000000352,
  Receipts1700000000360,
  CustomerPortal1700000000367,
  ReceiptLocales1700000000371,
];

/** Built once per service and handed to the modules (and, through InvoicingService, to tests). */
export interface InvoicingParts {
  mail: MailService;
  documents: InvoiceDocumentsService;
  estimates: EstimatesService;
  invoices: InvoicesService;
  billing: Billing;
  profiles: AccountProfileService;
  receipts: ReceiptsService;
}

/** The controllers (HTTP, and the payments feed consumer) and what they are given. */
function invoicingModule(
  runtime: ServiceRuntime,
  parts: InvoicingParts,
): Pick<ServiceAssembly<object>, 'controllers' | 'providers'> {
  const customers = new CustomersService(runtime.db, runtime.clock);
  const portalSettings = {
    secret: runtime.config.internalSecret,
    publicBaseUrl: parts.profiles.publicUrl,
    clock: runtime.clock,
  };
  return {
    controllers: [
      AccountController,
      AccountBrandingController,
      AccountProfileOperatorController,
      CustomersController,
      InvoicesController,
      InvoicePageController,
      EstimatesController,
      QuotePageController,
      ReceiptsController,
      PortalSessionsController,
      PortalPageController,
      ...parts.billing.controllers,
      // Consumers (InboxTransport): @EventPattern handlers, no HTTP routes.
      PaymentsFeedConsumer,
    ],
    providers: [
      { provide: CustomersService, useValue: customers },
      { provide: PORTAL_SETTINGS, useValue: portalSettings },
      { provide: PortalSessions, useValue: new PortalSessions(customers, portalSettings) },
      {
        provide: PortalService,
        useValue: new PortalService(runtime.db, parts.billing.subscriptions, parts.profiles),
      },
      { provide: MailService, useValue: parts.mail },
      { provide: AccountProfileService, useValue: parts.profiles },
      { provide: InvoiceDocumentsService, useValue: parts.documents },
      { provide: InvoicesService, useValue: parts.invoices },
      { provide: INVOICES_INTERNAL, useValue: parts.invoices },
      {
        provide: INVOICE_PAGE_SETTINGS,
        useValue: { secret: runtime.config.internalSecret, clock: runtime.clock },
      },
      { provide: EstimatesService, useValue: parts.estimates },
      { provide: ReceiptsService, useValue: parts.receipts },
      {
        provide: QUOTE_PAGE_SETTINGS,
        useValue: { secret: runtime.config.internalSecret, clock: runtime.clock },
      },
      ...parts.billing.providers,
    ],
  };
}

export type InvoicingService = Service<Pick<InvoicingParts, 'mail' | 'invoices' | 'estimates' | 'billing'>>;

/** The services of one instance, built once on the runtime. */
function buildParts(runtime: ServiceRuntime, config: InvoicingConfig): InvoicingParts {
  const mail = new MailService(runtime.db, runtime.clock, runtime.logger, config);
  const profiles = new AccountProfileService(runtime.db, runtime.clock, config.publicBaseUrl);
  const logos = (account: string) => profiles.currentLogo(account);
  const documents = new InvoiceDocumentsService(mail, logos, {
    secret: config.internalSecret,
    publicBaseUrl: config.publicBaseUrl,
    clock: runtime.clock,
  });
  const invoices = new InvoicesService(
    runtime.db,
    runtime.clock,
    { publicBaseUrl: config.publicBaseUrl, numberPrefix: config.invoiceNumberPrefix },
    documents,
  );
  documents.useInvoiceLoader(async (owner, id) => invoices.serialize(await invoices.get(owner, id)));
  const estimates = new EstimatesService(
    runtime.db,
    runtime.clock,
    { publicBaseUrl: config.publicBaseUrl, logos },
    invoices,
    mail,
  );
  const billing = createBilling(runtime, invoices, { estimates });
  const receipts = new ReceiptsService(runtime.db, mail, logos);
  return { mail, documents, invoices, billing, estimates, profiles, receipts };
}

export function createInvoicing(config: InvoicingConfig, deps: ServiceDeps = {}): Promise<InvoicingService> {
  return createService({
    config,
    schema: 'invoicing',
    migrations: INVOICING_MIGRATIONS,
    topics: [TOPICS.invoicingEvents, TOPICS.paymentsEvents, TOPICS.paymentsCommands],
    ...deps,
    assemble(runtime) {
      const parts = buildParts(runtime, config);
      const { mail, invoices, estimates, billing } = parts;
      registerInvoicingMetrics(runtime, billing.engine);
      const now = () => runtime.clock.now();
      const pdfThreads = startPdfThreads(config.pdfThreads, runtime.logger);
      return {
        ...invoicingModule(runtime, parts),
        // Sweeps on the injected clock, in every instance (their claims skip locked rows).
        background: [
          new Periodic(
            'estimate expiry sweep',
            EXPIRY_SWEEP_MS,
            () => estimates.runExpiry(now()),
            runtime.logger,
          ),
          new Periodic('overdue sweep', OVERDUE_SWEEP_MS, () => invoices.runOverdue(now()), runtime.logger),
          billing.engine,
        ],
        // The mail worker draws PDFs: the threads stop after it.
        resources: [mail, pdfThreads],
        handle: { mail, invoices, estimates, billing },
      };
    },
  });
}
