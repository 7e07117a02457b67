// The intent saga: the one place that orders a call to a payment processor (docs/style.md
// rule 5; Medusa's capturePayment). Payments, refunds and stored-card (mandate) charges all
// go through its four steps:
//   write    tx1 writes the intent (a pending row of payments.transactions, plus the caller's
//            own rows: a refund and its reservation, a mandate_charges attempt) and COMMITS it
//            before the processor hears of the charge;
//   call     the connector, OUTSIDE any transaction, idempotency key = the intent's id, so a
//            retry of the same intent is deduplicated by the processor;
//   record   tx2, one transaction: the intent leaves pending (guarded, once), the ledger legs
//            are posted, the outbox events written, and the caller's effects run (create the
//            mandate of a stored card, release a refund's reservation, advance a schedule);
//   recover  an intent a crash left pending is resumed with the same key (a refund, a stored
//            credential) or resolved as failed (a typed card: its number was never stored).
//
// 3-D Secure (requires_action). A connector that needs the payer answers
// `{ status: 'requires_action', redirect_url, processor_reference }`; `record` moves the
// intent pending -> requires_action (the processor's reference and the redirect kept on the
// row; no ledger leg; event payment.requires_action; the caller's onRecorded still runs, so a
// form token learns its transaction) and the card-payment use case redirects the payer. The
// processor's verdict then enters through `record` with a succeeded or failed outcome, from
// whichever comes first: the payer's return (card-payments/settle-authentication.ts, which
// looks the intent up at the processor), a processor webhook, or `recover` (which also looks
// it up, never guessing). For that guard `requires_action` is NOT final: succeeded and failed
// are recorded from `pending` or `requires_action` (intents.sql.ts NOT_FINAL), once; a
// requires_action outcome is recorded from `pending` only, so a late or replayed one never
// moves a settled payment back. Webhook handlers: record a card payment's verdict through
// TransactionsService.recordLate (this `record`, plus a payment link's completion when it
// succeeds); it changes nothing on an intent already final.

import { TOPICS } from '@paygrid/contracts';
import {
  emitEvent,
  requestTransaction,
  toMinor,
  type Clock,
  type Database,
  type SqlPart,
  type Tx,
} from '@paygrid/platform';
import type { ProcessorDispute } from '../connectors/connector';
import { paymentLegs, postEntries, refundLegs } from '../ledger/ledger';
import { serializeTransaction, type TransactionRow } from '../transactions/transaction';
import { markFailed, markRequiresAction, markSucceeded, transactionById } from './intents.sql';

/** What a processor answered for one intent (a ConnectorOutcome, or a failure we decided). */
export type IntentOutcome =
  | { status: 'succeeded'; processor_reference: string; credential?: string; dispute?: ProcessorDispute }
  | { status: 'failed'; code: string; message: string; processor_reference: string | null }
  | { status: 'requires_action'; redirect_url: string; processor_reference: string };

/** An outcome that ends the intent (a refund's, a stored card's: they never wait on a payer). */
export type FinalOutcome = Exclude<IntentOutcome, { status: 'requires_action' }>;

/** The work of tx2 that belongs to the caller, in the transaction that records the outcome. */
export interface RecordEffects {
  /**
   * A write sent with the intent's move, before it in the same statement (intents.sql.ts
   * MoveWith): the intent moves only if it returns a row. None means another run already
   * recorded this intent (a recovery racing a late answer): nothing else happens and the
   * transaction is answered as it stands.
   */
  claim?(now: Date): SqlPart;
  /**
   * On a move to succeeded: a write over `moved` (the intent's row as moved) sent in the same
   * statement, returning at most one row, which onRecorded receives as JSON (a payment link's
   * completion count: a round trip fewer than a statement of its own).
   */
  withSuccess?: SqlPart;
  /** After the intent succeeded, before its ledger legs (may answer the row updated). */
  onSucceeded?(
    tx: Tx,
    row: TransactionRow,
    outcome: IntentOutcome & { status: 'succeeded' },
  ): Promise<TransactionRow>;
  /** After the intent failed, before its event (e.g. give a refund's reservation back). */
  onFailed?(tx: Tx, row: TransactionRow): Promise<void>;
  /** The outbox event of the outcome; default payment.succeeded | payment.failed. */
  emit?(tx: Tx, row: TransactionRow, now: Date): Promise<void>;
  /**
   * Last, for either outcome (e.g. schedule a mandate's next cycle or retry); `withSuccess`:
   * the row `withSuccess` returned, on a success (null when it returned none).
   */
  onRecorded?(tx: Tx, row: TransactionRow, withSuccess?: Record<string, unknown> | null): Promise<void>;
}

/**
 * A refund the processor accepted without deciding yet (connector.ts RefundOutcome): `record`
 * keeps its reference on the pending intent, and a webhook or a lookup decides it later.
 */
export type AcceptedOutcome = { status: 'pending'; processor_reference: string };

/** One intent's call and record, given what tx1 wrote (`W`). */
export interface IntentSteps<W, R, O extends IntentOutcome | AcceptedOutcome = IntentOutcome> {
  call(written: W): Promise<O>;
  record(tx: Tx, written: W, outcome: O): Promise<R>;
  /**
   * A call that threw (time-out, reset): the intent stays pending for `recover`. Without this
   * the error reaches the caller; with it, the caller answers something (e.g. the pending row).
   */
  callFailed?(written: W, error: unknown): Promise<R>;
}

/** Refuses to run a connector call inside a database transaction (docs/style.md rule 5). */
export function assertOutsideTransaction(db: Database): void {
  if (requestTransaction.getStore()?.db === db) {
    throw new Error('a connector call must not run inside a database transaction');
  }
}

export class IntentSaga {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Step 1: tx1, committed before any processor call. */
  write<W>(work: (tx: Tx) => Promise<W>): Promise<W> {
    assertOutsideTransaction(this.db);
    return this.db.transaction(work);
  }

  /** Steps 2 and 3 for an intent already written (a fresh one, or one `recover` found). */
  async resume<W, R, O extends IntentOutcome | AcceptedOutcome = IntentOutcome>(
    written: W,
    steps: IntentSteps<W, R, O>,
  ): Promise<R> {
    assertOutsideTransaction(this.db);
    let outcome: O;
    try {
      outcome = await steps.call(written);
    } catch (error) {
      if (steps.callFailed) return steps.callFailed(written, error);
      throw error;
    }
    return this.db.transaction((tx) => steps.record(tx, written, outcome));
  }

  /**
   * Step 3 on the intent's transaction row, in the caller's transaction: pending |
   * requires_action -> succeeded with its ledger legs (a payment's or a refund's) and event,
   * -> failed with its event, or pending -> requires_action with its event, plus the caller's
   * effects. Idempotent: a second record of the same intent changes nothing and answers the
   * row as the first left it.
   */
  async record(
    tx: Tx,
    id: string,
    outcome: IntentOutcome,
    effects: RecordEffects = {},
  ): Promise<TransactionRow> {
    const now = this.clock.now();
    const claim = effects.claim?.(now);
    const emit = effects.emit ?? ((t: Tx, row: TransactionRow, at: Date) => emitPaymentEvent(t, row, at));
    let row: TransactionRow;
    let along: Record<string, unknown> | null | undefined;
    if (outcome.status === 'succeeded') {
      const moved = await markSucceeded(tx, id, outcome.processor_reference, now, {
        claim,
        along: effects.withSuccess,
      });
      if (!moved) return transactionById(tx, id);
      along = moved.along;
      row = effects.onSucceeded ? await effects.onSucceeded(tx, moved.row, outcome) : moved.row;
      const owner = row.merchant_id ?? row.account_id;
      const amount = toMinor(row.amount);
      await postEntries(tx, {
        account: row.account_id,
        livemode: row.livemode,
        transaction: row.id,
        currency: row.currency,
        legs: row.type === 'refund' ? refundLegs(owner, amount) : paymentLegs(owner, amount),
        at: now,
      });
    } else if (outcome.status === 'requires_action') {
      const waiting = await markRequiresAction(tx, id, outcome, now, claim);
      if (!waiting) return transactionById(tx, id);
      row = waiting;
    } else {
      const failed = await markFailed(tx, id, outcome, now, claim);
      if (!failed) return transactionById(tx, id);
      row = failed;
      if (effects.onFailed) await effects.onFailed(tx, row);
    }
    await emit(tx, row, now);
    if (effects.onRecorded) await effects.onRecorded(tx, row, along);
    return row;
  }

  /**
   * Step 4: resolves the intents `stale` finds left pending before now - `olderThanMs` (a
   * crash between tx1 and tx2), one by one; answers how many `resolve` reported resolved.
   * `olderThanMs` must exceed the connector's time-out, or an intent still in flight could be
   * resolved under its caller (whose tx2 then finds it no longer pending and changes nothing).
   */
  async recover<S>(
    olderThanMs: number,
    stale: (cutoff: Date) => Promise<S[]>,
    resolve: (intent: S) => Promise<boolean>,
  ): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - olderThanMs);
    let resolved = 0;
    for (const intent of await stale(cutoff)) {
      if (await resolve(intent)) resolved++;
    }
    return resolved;
  }
}

const PAYMENT_EVENTS = {
  succeeded: 'payment.succeeded',
  failed: 'payment.failed',
  requires_action: 'payment.requires_action',
} as const;

/** payment.succeeded | payment.failed | payment.requires_action, through the outbox. */
export async function emitPaymentEvent(tx: Tx, row: TransactionRow, now: Date): Promise<void> {
  if (row.status === 'pending') throw new Error(`no payment event for a pending transaction ${row.id}`);
  await emitEvent(tx, TOPICS.paymentsEvents, {
    type: PAYMENT_EVENTS[row.status],
    account: row.account_id,
    livemode: row.livemode,
    ...(row.merchant_id ? { merchant: row.merchant_id } : {}),
    object: serializeTransaction(row),
    at: now,
  });
}
