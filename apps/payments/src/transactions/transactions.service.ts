// Transactions: the payments (and, through refunds.service.ts, the refunds) that move money.
// A card charge follows the intent pattern (docs/style.md, Medusa's capturePayment):
//   tx1  write the pending transaction (the intent);
//   call the connector OUTSIDE any transaction, idempotency key = the transaction id;
//   tx2  record the outcome: ledger entries + payment.succeeded, or failure + payment.failed.
// A crash between the steps leaves a pending intent; recoverPending() resolves it.

import { TOPICS } from '@paygrid/contracts';
import {
  ApiError,
  type Clock,
  type Database,
  emitEvent,
  findOwned,
  minorToJson,
  newId,
  notFound,
  paginate,
  requestTransaction,
  toMinor,
  type Tx,
  type Tenant,
} from '@paygrid/platform';
import { digitsOnly, summarizeCard, validateCard } from '../connectors/cards';
import type { CardDetails, ConnectorOutcome, PaymentMethodSummary } from '../connectors/connector';
import type { ConnectorRouter } from '../connectors/connector-router';
import { paymentLegs, postEntries } from '../ledger/ledger';
import { ensureDefaultMerchant } from '../merchants/default-merchant';
import type { ListTransactionsQuery } from './transactions.dto';

export type TransactionType = 'payment' | 'refund';
export type TransactionStatus = 'pending' | 'succeeded' | 'failed';

export interface TransactionRow {
  id: string;
  account_id: string;
  livemode: boolean;
  merchant_id: string | null;
  type: TransactionType;
  status: TransactionStatus;
  amount: string;
  currency: string;
  amount_refunded: string;
  refunded_transaction: string | null;
  payment_link: string | null;
  mandate: string | null;
  invoice: string | null;
  customer: string | null;
  client_reference_id: string | null;
  reference: string | null;
  payment_method: PaymentMethodSummary | null;
  failure_code: string | null;
  failure_message: string | null;
  processor_reference: string | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

const iso = (d: Date) => new Date(d).toISOString();

/** What a succeeded payment can still give back; 0 for anything else. */
export function refundableAmount(
  t: Pick<TransactionRow, 'type' | 'status' | 'amount' | 'amount_refunded'>,
): bigint {
  if (t.type !== 'payment' || t.status !== 'succeeded') return 0n;
  return toMinor(t.amount) - toMinor(t.amount_refunded);
}

export function serializeTransaction(t: TransactionRow) {
  return {
    id: t.id,
    object: 'transaction',
    livemode: t.livemode,
    type: t.type,
    status: t.status,
    amount: minorToJson(toMinor(t.amount)),
    currency: t.currency,
    amount_refunded: minorToJson(toMinor(t.amount_refunded)),
    refundable_amount: minorToJson(refundableAmount(t)),
    refunded_transaction: t.refunded_transaction,
    merchant: t.merchant_id,
    payment_link: t.payment_link,
    mandate: t.mandate,
    invoice: t.invoice,
    customer: t.customer,
    client_reference_id: t.client_reference_id,
    reference: t.reference,
    payment_method: t.payment_method,
    failure_code: t.failure_code,
    failure_message: t.failure_message,
    metadata: t.metadata,
    created_at: iso(t.created_at),
    updated_at: iso(t.updated_at),
  };
}

export interface ChargeCardInput {
  amount: bigint;
  currency: string;
  /** Held in memory for the connector call only; never stored or logged. */
  card: CardDetails;
  merchant?: string;
  payment_link?: string;
  mandate?: string;
  invoice?: string;
  customer?: string;
  client_reference_id?: string;
  metadata?: Record<string, string>;
  /** Name of the default merchant if it must be created (no `merchant` given). */
  account_name?: string;
}

/** What the intent row of a payment records (tx1). */
export interface PaymentIntent {
  amount: bigint;
  currency: string;
  merchant: string | null;
  payment_link?: string | null;
  mandate?: string | null;
  invoice?: string | null;
  customer?: string | null;
  client_reference_id?: string | null;
  reference?: string | null;
  payment_method: PaymentMethodSummary | null;
  metadata?: Record<string, string>;
}

/**
 * Runs in tx2 of a successful charge, before its ledger entries and payment.succeeded: the
 * checkout of a recurring link creates the mandate here, with the stored credential, so the
 * payment and its mandate commit together. It may return the transaction updated (mandate set).
 */
export type OnChargeSucceeded = (
  tx: Tx,
  row: TransactionRow,
  credential: string | undefined,
) => Promise<TransactionRow>;

export interface ChargeCardOptions {
  /** Ask the processor to keep the card for later charges (a mandate). */
  storeCredential?: boolean;
  onSucceeded?: OnChargeSucceeded;
}

/** Refuses to run a connector call inside a database transaction (docs/style.md rule 5). */
export function assertOutsideTransaction(db: Database): void {
  if (requestTransaction.getStore()?.db === db) {
    throw new Error('a connector call must not run inside a database transaction');
  }
}

export class TransactionsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly connectors: ConnectorRouter,
  ) {}

  /** The service's database (the hosted pages keep their single-use form rows in it). */
  get database(): Database {
    return this.db;
  }

  async chargeCard(
    tenant: Tenant,
    input: ChargeCardInput,
    options: ChargeCardOptions = {},
  ): Promise<TransactionRow> {
    assertOutsideTransaction(this.db);
    const problem = validateCard(input.card, this.clock.now());
    if (problem) throw new ApiError('parameter_invalid', problem.message, `card[${problem.param}]`);
    const card = { ...input.card, number: digitsOnly(input.card.number) };
    // Live without a processor: refused here, before the intent is written.
    const connector = await this.connectors.forTenant(tenant);

    // tx1: the intent. Only brand, last4 and expiry are written (PCI: no PAN, no CVC).
    const intent = await this.db.transaction(async (tx) => {
      const merchant = await this.resolveMerchant(tx, tenant, input.merchant, input.account_name);
      return this.insertIntent(tx, tenant, {
        ...input,
        merchant,
        payment_method: summarizeCard(card),
      });
    });

    // The processor call, outside any transaction. A throw leaves the intent pending for
    // recoverPending(); the processor dedupes a retry on the transaction id.
    const outcome = await connector.charge({
      idempotency_key: intent.id,
      amount: input.amount,
      currency: input.currency,
      livemode: tenant.livemode,
      card,
      store_credential: options.storeCredential ?? false,
    });

    // tx2: the outcome.
    return this.db.transaction((tx) =>
      outcome.status === 'succeeded'
        ? this.recordSuccess(tx, intent.id, outcome.processor_reference, (t, row) =>
            options.onSucceeded ? options.onSucceeded(t, row, outcome.credential) : Promise.resolve(row),
          )
        : this.recordFailure(tx, intent.id, outcome.code, outcome.message, outcome.processor_reference),
    );
  }

  /** Writes a pending payment (the intent of a connector call) in the caller's transaction. */
  async insertIntent(tx: Tx, tenant: Tenant, intent: PaymentIntent): Promise<TransactionRow> {
    const [row] = await tx.query<TransactionRow>(
      `insert into payments.transactions (id, account_id, livemode, merchant_id, type, status, amount, currency,
         payment_link, mandate, invoice, customer, client_reference_id, reference, payment_method, metadata, created_at, updated_at)
       values ($1, $2, $3, $4, 'payment', 'pending', $5::bigint, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14::jsonb, $15, $15)
       returning *`,
      [
        newId('txn'),
        tenant.account,
        tenant.livemode,
        intent.merchant,
        intent.amount.toString(),
        intent.currency,
        intent.payment_link ?? null,
        intent.mandate ?? null,
        intent.invoice ?? null,
        intent.customer ?? null,
        intent.client_reference_id ?? null,
        intent.reference ?? null,
        intent.payment_method ? JSON.stringify(intent.payment_method) : null,
        JSON.stringify(intent.metadata ?? {}),
        this.clock.now(),
      ],
    );
    return row;
  }

  /**
   * Records a payment that fails without reaching the processor (a command on an invalid
   * mandate): written directly as failed, with payment.failed, in the caller's transaction.
   */
  async insertFailed(
    tx: Tx,
    tenant: Tenant,
    intent: PaymentIntent,
    code: string,
    message: string,
  ): Promise<TransactionRow> {
    const row = await this.insertIntent(tx, tenant, intent);
    return this.recordFailure(tx, row.id, code, message, null);
  }

  /** tx2 of any payment: the connector's outcome, in the caller's transaction. */
  recordOutcome(
    tx: Tx,
    id: string,
    outcome: ConnectorOutcome,
    onSucceeded?: (tx: Tx, row: TransactionRow) => Promise<TransactionRow>,
  ): Promise<TransactionRow> {
    return outcome.status === 'succeeded'
      ? this.recordSuccess(tx, id, outcome.processor_reference, onSucceeded)
      : this.recordFailure(tx, id, outcome.code, outcome.message, outcome.processor_reference);
  }

  /**
   * Resolves payments left pending longer than `olderThanMs` (a crash between the connector
   * call and tx2). A card charge cannot be re-driven: the card number was never stored
   * (PCI DSS: no PAN at rest), so the only safe resolution is `failed` with
   * `processing_error`; the processor's own idempotency (key = transaction id) means a charge
   * that did go through is never repeated by the payer's retry, which is a new transaction.
   * `olderThanMs` must exceed the connector's time-out, or an in-flight charge could be
   * failed under its caller (tx2 would then find it no longer pending and keep `failed`).
   * With a real processor, look the charge up by its idempotency key first; the stateless
   * sandbox has nothing to look up. Charges of a stored card (mandate_charges) are not
   * failed here: MandatesService.recoverPending re-drives them.
   */
  async recoverPending(olderThanMs: number): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - olderThanMs);
    const stale = await this.db.query<{ id: string }>(
      `select t.id from payments.transactions t where t.status = 'pending' and t.type = 'payment' and t.created_at < $1
          and not exists (select 1 from payments.mandate_charges c where c.transaction_id = t.id)
       order by t.created_at limit 500`,
      [cutoff],
    );
    let resolved = 0;
    for (const { id } of stale) {
      const row = await this.db.transaction((tx) =>
        this.recordFailure(
          tx,
          id,
          'processing_error',
          'The payment could not be confirmed with the processor; no money was taken by this attempt.',
          null,
        ),
      );
      if (row.status === 'failed') resolved++;
    }
    return resolved;
  }

  /** pending -> succeeded, with its ledger entries and payment.succeeded. Idempotent. */
  private async recordSuccess(
    tx: Tx,
    id: string,
    processorReference: string,
    onSucceeded?: (tx: Tx, row: TransactionRow) => Promise<TransactionRow>,
  ): Promise<TransactionRow> {
    const now = this.clock.now();
    const [updated] = await tx.query<TransactionRow>(
      `update payments.transactions set status = 'succeeded', processor_reference = $2, updated_at = $3
        where id = $1 and status = 'pending' returning *`,
      [id, processorReference, now],
    );
    if (!updated) return this.reload(tx, id);
    const row = onSucceeded ? await onSucceeded(tx, updated) : updated;
    await postEntries(tx, {
      account: row.account_id,
      livemode: row.livemode,
      transaction: row.id,
      currency: row.currency,
      legs: paymentLegs(row.merchant_id ?? row.account_id, toMinor(row.amount)),
      at: now,
    });
    await this.emit(tx, row, 'payment.succeeded', now);
    return row;
  }

  /** pending -> failed, with payment.failed. Idempotent. */
  async recordFailure(
    tx: Tx,
    id: string,
    code: string,
    message: string,
    processorReference: string | null,
  ): Promise<TransactionRow> {
    const now = this.clock.now();
    const [row] = await tx.query<TransactionRow>(
      `update payments.transactions set status = 'failed', failure_code = $2, failure_message = $3,
         processor_reference = coalesce($4, processor_reference), updated_at = $5
        where id = $1 and status = 'pending' returning *`,
      [id, code, message, processorReference, now],
    );
    if (!row) return this.reload(tx, id);
    await this.emit(tx, row, 'payment.failed', now);
    return row;
  }

  async reload(tx: Tx, id: string): Promise<TransactionRow> {
    const [row] = await tx.query<TransactionRow>('select * from payments.transactions where id = $1', [id]);
    return row;
  }

  private async emit(
    tx: Tx,
    row: TransactionRow,
    type: 'payment.succeeded' | 'payment.failed',
    now: Date,
  ): Promise<void> {
    await emitEvent(tx, TOPICS.paymentsEvents, {
      type,
      account: row.account_id,
      livemode: row.livemode,
      ...(row.merchant_id ? { merchant: row.merchant_id } : {}),
      object: serializeTransaction(row),
      at: now,
    });
  }

  /** The merchant paid (default: the account's); live payments need an active one (docs/api.md §5). */
  async resolveMerchant(
    tx: Tx,
    tenant: Tenant,
    merchant: string | undefined,
    accountName?: string,
  ): Promise<string | null> {
    let [row] = await tx.query<{ id: string; onboarding_status: string }>(
      merchant
        ? 'select id, onboarding_status from payments.merchants where account_id = $1 and livemode = $2 and id = $3'
        : 'select id, onboarding_status from payments.merchants where account_id = $1 and livemode = $2 and is_default',
      merchant ? [tenant.account, tenant.livemode, merchant] : [tenant.account, tenant.livemode],
    );
    if (merchant && !row) throw notFound('merchant', merchant, 'merchant');
    if (!row && accountName !== undefined) {
      row = await ensureDefaultMerchant(tx, tenant, accountName, this.clock.now());
    }
    if (tenant.livemode && row?.onboarding_status !== 'active') {
      throw new ApiError(
        'merchant_not_active',
        'Live payments need a merchant whose onboarding is active.',
        'merchant',
      );
    }
    return row?.id ?? null;
  }

  async get(tenant: Tenant, id: string): Promise<TransactionRow> {
    return findOwned<TransactionRow>(this.db, 'payments.transactions', tenant, id, 'transaction');
  }

  list(tenant: Tenant, query: ListTransactionsQuery) {
    const where = ['account_id = $1', 'livemode = $2'];
    const params: unknown[] = [tenant.account, tenant.livemode];
    const equal: [string, string | undefined][] = [
      ['merchant_id', query.merchant],
      ['type', query.type],
      ['status', query.status],
      ['payment_link', query.payment_link],
      ['currency', query.currency],
    ];
    for (const [column, value] of equal) {
      if (value !== undefined) {
        params.push(value);
        where.push(`${column} = $${params.length}`);
      }
    }
    if (query.amount) {
      for (const [key, op] of [
        ['gt', '>'],
        ['gte', '>='],
        ['lt', '<'],
        ['lte', '<='],
      ] as const) {
        const value = query.amount[key];
        if (value !== undefined) {
          params.push(String(value));
          where.push(`amount ${op} $${params.length}::bigint`);
        }
      }
    }
    // created[...] is applied by paginate itself (ListQuery.created).
    return paginate<TransactionRow>(this.db, {
      table: 'payments.transactions',
      where,
      params,
      list: query,
      url: '/v1/transactions',
    });
  }
}
