// Transactions: the payments (and, through refunds.service.ts, the refunds) that move money.
// A card charge runs through the intent saga (intents/intent-saga.ts): tx1 writes the pending
// transaction, the connector is called outside any transaction with the transaction id as
// idempotency key, tx2 records the outcome. A crash between the steps leaves a pending
// intent; recoverPending() resolves it.

import {
  ApiError,
  type Clock,
  type Database,
  findOwned,
  notFound,
  paginate,
  type Tx,
  type Tenant,
} from '@paygrid/platform';
import { digitsOnly, summarizeCard, validateCard } from '../connectors/cards';
import type { CardDetails } from '../connectors/connector';
import type { ConnectorRouter } from '../connectors/connector-router';
import { assertOutsideTransaction, IntentSaga, type IntentOutcome } from '../intents/intent-saga';
import { insertPaymentIntent, staleCardPayments } from '../intents/intents.sql';
import { ensureDefaultMerchant } from '../merchants/default-merchant';
import type { TransactionRow } from './transaction';
import type { ListTransactionsQuery } from './transactions.dto';

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
  /** Runs last in tx2, for either outcome (the checkout records its form token there). */
  onRecorded?: (tx: Tx, row: TransactionRow) => Promise<void>;
}

export class TransactionsService {
  private readonly saga: IntentSaga;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly connectors: ConnectorRouter,
  ) {
    this.saga = new IntentSaga(db, clock);
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
    // tx1: only brand, last4 and expiry are written (PCI: no PAN, no CVC).
    const intent = await this.saga.write(async (tx) => {
      const merchant = await this.resolveMerchant(tx, tenant, input.merchant, input.account_name);
      return insertPaymentIntent(
        tx,
        tenant,
        { ...input, merchant, payment_method: summarizeCard(card) },
        this.clock.now(),
      );
    });
    // A throwing call leaves the intent pending for recoverPending().
    return this.saga.resume(intent, {
      call: (row) =>
        connector.charge({
          idempotency_key: row.id,
          amount: input.amount,
          currency: input.currency,
          livemode: tenant.livemode,
          card,
          store_credential: options.storeCredential ?? false,
        }),
      record: (tx, row, outcome: IntentOutcome) =>
        this.saga.record(tx, row.id, outcome, {
          onSucceeded: (t, paid, success) =>
            options.onSucceeded ? options.onSucceeded(t, paid, success.credential) : Promise.resolve(paid),
          ...(options.onRecorded ? { onRecorded: options.onRecorded } : {}),
        }),
    });
  }

  /**
   * Resolves card payments left pending longer than `olderThanMs` (a crash between the
   * connector call and tx2). A typed card cannot be re-driven: its number was never stored
   * (PCI DSS: no PAN at rest), so the only safe resolution is `failed` with
   * `processing_error`; the processor's own idempotency (key = transaction id) means a charge
   * that did go through is never repeated by the payer's retry, which is a new transaction.
   * With a real processor, look the charge up by its idempotency key first; the stateless
   * sandbox has nothing to look up. Charges of a stored card (mandate_charges) are not
   * failed here: MandateCharges.recoverPending re-drives them.
   */
  recoverPending(olderThanMs: number): Promise<number> {
    return this.saga.recover(
      olderThanMs,
      (cutoff) => staleCardPayments(this.db, cutoff),
      async ({ id }) => {
        const row = await this.db.transaction((tx) =>
          this.saga.record(tx, id, {
            status: 'failed',
            code: 'processing_error',
            message:
              'The payment could not be confirmed with the processor; no money was taken by this attempt.',
            processor_reference: null,
          }),
        );
        return row.status === 'failed';
      },
    );
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
