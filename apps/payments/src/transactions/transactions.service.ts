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
  type SqlPart,
  type Tx,
  type Tenant,
  type TextRow,
} from '@paygrid/platform';
import { digitsOnly, summarizeCard, validateCard } from '../connectors/cards';
import type { CardDetails } from '../connectors/connector';
import type { ProcessorDispute } from '../connectors/connector';
import type { ConnectorRouter } from '../connectors/connector-router';
import {
  assertOutsideTransaction,
  IntentSaga,
  type IntentOutcome,
  type RecordEffects,
} from '../intents/intent-saga';
import {
  insertPaymentIntent,
  staleCardPayments,
  touchRequiresAction,
  writeCardIntent,
  type IntentClaim,
  type StaleCardPayment,
} from '../intents/intents.sql';
import { ensureDefaultMerchant } from '../merchants/default-merchant';
import { abandonedOutcome, lookedUpOutcome } from './processor-verdicts';
import { TRANSACTION_TEXT_COLUMNS, type StoredMandateTerms, type TransactionRow } from './transaction';
import type { ListTransactionsQuery } from './transactions.dto';

/**
 * How long a payer has to complete 3-D Secure before the payment is canceled at the processor
 * and recorded failed (PAYMENTS_AUTHENTICATION_TIMEOUT_SECONDS). An hour: an issuer's challenge
 * takes minutes, and a hosted form's payer who is gone an hour is gone (Stripe's own hosted
 * Checkout keeps a session open 24 hours, its longest; one settable bound serves both).
 */
export const DEFAULT_AUTHENTICATION_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * What a recorded payment still owes beyond the saga, in the transaction that records it
 * (payments.ts wires them): mostly a payment that succeeds after its own request (the payer's
 * return from 3-D Secure, recovery, a processor webhook).
 */
export interface PaymentEffects {
  /**
   * A dispute the processor reported with the charge itself (the sandbox's 0259 card), opened
   * in the transaction that records the payment succeeded, by the processor webhooks' path.
   */
  disputeReported?(tx: Tx, row: TransactionRow, dispute: ProcessorDispute): Promise<void>;
  /** Creates the mandate of a card-keeping payment (it has `mandate_terms`); answers the row. */
  createMandate?(tx: Tx, row: TransactionRow, credential: string | undefined): Promise<TransactionRow>;
  /** After it is recorded succeeded: a payment link's completion. */
  succeeded?(tx: Tx, row: TransactionRow): Promise<void>;
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
  /** The payer's address for the receipt (hosted checkout). */
  receipt_email?: string;
  metadata?: Record<string, string>;
  /** Name of the default merchant if it must be created (no `merchant` given). */
  account_name?: string;
  /** A card-keeping payment's mandate, kept on the row in case it succeeds after its request. */
  mandate_terms?: StoredMandateTerms;
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
  /**
   * Where the payer comes back after authenticating (3-D Secure), for this transaction: with
   * it a processor asking for authentication answers requires_action (a hosted form redirects
   * the payer); without it such a charge fails with authentication_required.
   */
  returnUrl?: (transactionId: string) => string;
  onSucceeded?: OnChargeSucceeded;
  /** Sent in tx2's statement that records the payment succeeded (RecordEffects.withSuccess). */
  withSuccess?: SqlPart;
  /**
   * Runs last in tx2, for either outcome (the checkout records its form token there), with the
   * row `withSuccess` returned on a success.
   */
  onRecorded?: (tx: Tx, row: TransactionRow, withSuccess?: Record<string, unknown> | null) => Promise<void>;
  /**
   * The claim written in tx1's statement that writes the intent, behind its lock (a hosted
   * form's token: its claim commits with the pending payment); its `decide` throwing rolls tx1
   * back and nothing is charged.
   */
  inIntent?: () => IntentClaim<void>;
}

export class TransactionsService {
  private readonly saga: IntentSaga;

  /** @param late what a payment that succeeds after its own request still owes (PaymentEffects). */
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly connectors: ConnectorRouter,
    private readonly late: PaymentEffects = {},
    private readonly authenticationTimeoutMs = DEFAULT_AUTHENTICATION_TIMEOUT_MS,
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
    // Object.assign, not a leading spread: Node 20's slow path (docs/style.md, finding 56).
    const card = Object.assign({}, input.card, { number: digitsOnly(input.card.number) });
    // Live without a processor: refused here, before the intent is written.
    const connector = await this.connectors.forTenant(tenant);
    // tx1: only brand, last4 and expiry are written (PCI: no PAN, no CVC).
    const intent = await this.saga.write(async (tx) => {
      const claim = options.inIntent?.();
      const written = await writeCardIntent(
        tx,
        tenant,
        Object.assign({}, input, { merchant: input.merchant || null, payment_method: summarizeCard(card) }),
        this.clock.now(),
        {
          merchantRequired: Boolean(input.merchant) || input.account_name !== undefined,
          claim,
          // Without an account name, the statement writes the intent or refuses: tx1's last
          // (one round trip with its BEGIN and COMMIT). With one, a missing default merchant is
          // created in tx1 after it (unwritten).
          last: input.account_name === undefined,
        },
      );
      // The claim's refusal first (a used token answers its first submission), then the merchant's.
      if (claim) claim.decide(written.decision ?? {});
      return written.row ?? this.unwritten(tx, tenant, input, written.merchant, card);
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
          ...(options.returnUrl ? { return_url: options.returnUrl(row.id) } : {}),
        }),
      record: (tx, row, outcome: IntentOutcome) =>
        this.saga.record(tx, row.id, outcome, {
          onSucceeded: (t, paid, success) =>
            options.onSucceeded ? options.onSucceeded(t, paid, success.credential) : Promise.resolve(paid),
          withSuccess: options.withSuccess,
          onRecorded: async (t, recorded, along) => {
            await options.onRecorded?.(t, recorded, along);
            const { disputeReported } = this.late;
            if (recorded.status === 'succeeded' && outcome.status === 'succeeded' && outcome.dispute)
              await disputeReported?.(t, recorded, outcome.dispute);
          },
        }),
    });
  }

  /**
   * Resolves typed-card payments left pending longer than `olderThanMs` (a crash between the
   * connector call and tx2, an answer lost) or still waiting on the payer's authentication.
   * The processor is asked, never guessed (docs/api.md §5, recovery): its record of the charge,
   * found by the reference or by our idempotency key (connector.lookup), is recorded through
   * the saga's guarded `record`, so a charge Stripe made is recorded succeeded with its ledger
   * legs, once. A processor that has no such charge: failed (nothing was taken), but only once
   * the intent is older than NOT_FOUND_AFTER_MS (Stripe's search lags its writes). A processor
   * that cannot be asked, or a payer still authenticating: left as it is for the next run,
   * until the payer has had `authenticationTimeoutMs`: then the payment is canceled at the
   * processor and recorded as the processor then has it (abandonedOutcome).
   * Charges of a stored card (mandate_charges) are not here: MandateCharges re-drives them.
   */
  recoverPending(olderThanMs: number): Promise<number> {
    return this.saga.recover(
      olderThanMs,
      (cutoff) => staleCardPayments(this.db, cutoff),
      async (intent) => {
        const outcome =
          (await this.lookup(intent)) ??
          (await abandonedOutcome(this.connectors, this.clock.now(), intent, this.authenticationTimeoutMs));
        if (!outcome) {
          if (intent.status === 'requires_action')
            await touchRequiresAction(this.db, intent.id, this.clock.now());
          return false;
        }
        const row = await this.recordLate(intent.id, outcome);
        return row.status === 'succeeded' || row.status === 'failed';
      },
    );
  }

  /**
   * What the processor says of a pending or requires_action payment, as an outcome to record;
   * undefined when there is nothing to record yet (no answer, the payer still authenticating).
   * The payer's return from authentication settles through it too (settle-authentication.ts).
   */
  lookup(intent: StaleCardPayment): Promise<IntentOutcome | undefined> {
    return lookedUpOutcome(this.connectors, this.clock.now(), intent);
  }

  /**
   * A card payment's intent that writeCardIntent did not write for its merchant (the merchant
   * paid, default: the account's; docs/api.md §5): 404 for an unknown one, 409
   * merchant_not_active for a live payment to one not active; or the account's first, its
   * default merchant created here (`account_name`), then the intent written.
   */
  private async unwritten(
    tx: Tx,
    tenant: Tenant,
    input: ChargeCardInput,
    found: { id: string; onboarding_status: string } | undefined,
    card: CardDetails,
  ): Promise<TransactionRow> {
    if (input.merchant && !found) throw notFound('merchant', input.merchant, 'merchant');
    const merchant =
      found ??
      (input.account_name !== undefined
        ? await ensureDefaultMerchant(tx, tenant, input.account_name, this.clock.now())
        : undefined);
    if (tenant.livemode && merchant?.onboarding_status !== 'active') {
      throw new ApiError(
        'merchant_not_active',
        'Live payments need a merchant whose onboarding is active.',
        'merchant',
      );
    }
    // Only a default merchant just created gets here: every other case was written or refused.
    if (!merchant || merchant === found) throw new Error('card payment intent neither written nor refused');
    return insertPaymentIntent(
      tx,
      tenant,
      Object.assign({}, input, { merchant: merchant.id, payment_method: summarizeCard(card) }),
      this.clock.now(),
    );
  }

  /**
   * Records the processor's verdict on a card payment after its own request ended: the payer's
   * return (settle-authentication.ts), recovery, or a processor webhook. The saga's guarded
   * record, once, plus `lateSuccess` when it succeeds.
   */
  recordLate(id: string, outcome: IntentOutcome): Promise<TransactionRow> {
    return this.db.transaction((tx) => this.recordLateIn(tx, id, outcome));
  }

  /** recordLate in the caller's transaction (a processor webhook stores its event in it). */
  recordLateIn(tx: Tx, id: string, outcome: IntentOutcome): Promise<TransactionRow> {
    const { createMandate, succeeded } = this.late;
    const effects: RecordEffects = {
      // A card-keeping payment's mandate, in the transaction that records its success (once).
      onSucceeded: (t, row, success) =>
        row.mandate_terms && !row.mandate && createMandate
          ? createMandate(t, row, success.credential)
          : Promise.resolve(row),
      onRecorded: async (t, row) => {
        if (row.status === 'succeeded' && succeeded) await succeeded(t, row);
      },
    };
    return this.saga.record(tx, id, outcome, effects);
  }

  /** A transaction by id alone: for a caller that proved it may see it (a sealed return URL). */
  async byId(id: string): Promise<TransactionRow | undefined> {
    const [row] = await this.db.query<TransactionRow>('select * from payments.transactions where id = $1', [
      id,
    ]);
    return row;
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
    // created[...] is applied by paginate itself (ListQuery.created). The rows stay text, and
    // the controller writes their JSON (transactionJson; bench/README.md finding 59).
    return paginate<TextRow>(this.db, {
      table: 'payments.transactions',
      where,
      params,
      list: query,
      url: '/v1/transactions',
      columns: TRANSACTION_TEXT_COLUMNS,
      textRows: true,
    });
  }
}
