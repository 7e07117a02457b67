// What the invoices module offers the rest of the invoicing service (the billing engine,
// test clocks, estimates) without going through HTTP. Every method works INSIDE the caller's
// transaction, so a subscription renewal and its invoice, charge command and events commit
// together or not at all. Times are passed in (`now`), so test clocks can move them.
//
// Implemented by InvoicesService (invoices.service.ts, over the use cases beside it); wired in src/invoicing.ts and reachable
// through Nest injection (`@Inject(InvoicesService)`) or the `INVOICES_INTERNAL` token.

import type { Database, Tx, Tenant } from '@paygrid/platform';
import type { CustomerRow } from '../customers/customers.service';
import type { DiscountInput, LineInput } from './totals';

export const INVOICES_INTERNAL = 'paygrid:invoices-internal';

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export type CollectionMethod = 'send_invoice' | 'charge_automatically';

export interface CreateInvoiceInput {
  customer: string;
  /** Default: the customer's currency (400 parameter_missing when neither is set). */
  currency?: string;
  /** 0-250 lines. */
  lines: LineInput[];
  discount?: DiscountInput | null;
  /** Default `send_invoice`. */
  collection_method?: CollectionMethod;
  /** send_invoice only: due `days_until_due` days after finalization (default 30), or at `due_date`. */
  days_until_due?: number;
  due_date?: Date;
  description?: string;
  metadata?: Record<string, string>;
  /** Set by the billing engine: the invoice belongs to this subscription period. */
  subscription?: string | null;
  period_start?: Date;
  period_end?: Date;
  /** Set by estimates' /convert. */
  estimate?: string | null;
  /** The seller's name snapshot (API requests: the context's account_name). */
  seller_name?: string;
  /** The creation time: a test clock's frozen time for customers on a test clock. */
  now: Date;
}

/** The stored invoice, as the service returns it (amounts are bigint). */
export interface Invoice {
  id: string;
  account_id: string;
  livemode: boolean;
  customer_id: string;
  status: InvoiceStatus;
  number: string | null;
  currency: string;
  collection_method: CollectionMethod;
  subtotal: bigint;
  discount_total: bigint;
  tax_total: bigint;
  total: bigint;
  amount_paid: bigint;
  amount_due: bigint;
  due_date: Date | null;
  subscription_id: string | null;
  test_clock: string | null;
  /** How many collection attempts were made (the `attempt` of the last charge command). */
  attempt_count: number;
  created_at: Date;
}

/** The outcome of a collection attempt, as learned from payments.events.v1. */
export interface PaymentOutcome {
  tenant: Tenant;
  invoice: Invoice;
  /** `succeeded`: the invoice is now paid. `failed`: it stays open. */
  outcome: 'succeeded' | 'failed';
  /** The payment transaction (`txn_...`). */
  transaction: string;
  /** The command reference (`${invoice}:${attempt}`) when the payment came from a mandate charge. */
  reference: string | null;
  failure_code: string | null;
  failure_message: string | null;
  /** The event's time. */
  at: Date;
}

/**
 * Called in the SAME transaction as the invoice's settlement (payment.succeeded) or the
 * recording of a failure (payment.failed), once per payment event (the inbox dedupes
 * redeliveries). A listener that throws rolls the whole settlement back and the event is
 * retried. The billing engine uses it for dunning (retry schedule, past_due, unpaid).
 */
export type PaymentOutcomeListener = (tx: Tx, outcome: PaymentOutcome) => Promise<void>;

export interface InvoicesInternal {
  /** Creates a draft (emits invoice.created). 404 for an unknown customer, 400 for bad lines. */
  createInTx(tx: Tx, tenant: Tenant, input: CreateInvoiceInput): Promise<Invoice>;

  /**
   * Collects an open invoice: `charge_automatically` with a customer default mandate ->
   * writes a `payment.charge_mandate` command (reference `${id}:${attempt}`, attempt >= 1,
   * the same attempt twice is charged once by the payments service);
   * `send_invoice` (or no mandate) -> e-mails the invoice (invoice.sent). Returns what it did.
   */
  collectInTx(
    tx: Tx,
    tenant: Tenant,
    id: string,
    attempt: number,
    now: Date,
  ): Promise<{ invoice: Invoice; action: 'charge_requested' | 'sent' | 'nothing_due' }>;

  /**
   * createInTx, then draft -> open (the gapless number, the seller and customer snapshots,
   * the due date; invoice.finalized, or invoice.paid at once for a zero total), then
   * collectInTx (attempt `attempt`), without reading back the rows it has just written: the
   * billing engine's renewal, a subscription change's invoice, estimates' /convert with send.
   */
  createAndCollectInTx(
    tx: Tx,
    tenant: Tenant,
    input: CreateInvoiceInput,
    attempt: number,
    /** `input.customer`'s row when the caller read it in this transaction (else read here). */
    customer?: CustomerRow,
  ): Promise<{ invoice: Invoice; action: 'charge_requested' | 'sent' | 'nothing_due' }>;

  /** Registers a listener called inside each settlement transaction (see PaymentOutcomeListener). */
  onPaymentOutcome(listener: PaymentOutcomeListener): void;

  /** runOverdue (below) with this service's database and public URLs. */
  runOverdue(now: Date, scope?: { tenant?: Tenant; test_clock?: string }): Promise<number>;
}

/**
 * Marks open invoices whose due_date has passed (`due_date <= now`) as overdue once each:
 * emits invoice.overdue and records `overdue_at`. `scope` limits it to one tenant and/or the
 * customers of one test clock (test clocks advance only their own invoices; the real-time
 * timer passes no test_clock and skips invoices of test-clock customers).
 * Returns how many invoices it marked. Exported from invoice-overdue.ts; also
 * `InvoicesInternal.runOverdue(now, scope?)`, which supplies db and URLs.
 */
export type RunOverdue = (
  db: Database,
  now: Date,
  scope: { tenant?: Tenant; test_clock?: string },
  /** For the hosted_url/pdf_url in the events. */
  publicBaseUrl: string,
) => Promise<number>;
