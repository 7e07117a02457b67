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
// 3-D Secure is not built, but the outcome type leaves it a place: a connector that needs
// the payer would answer `{ status: 'requires_action', redirect_url, processor_reference }`.
// `resume` would then record only that (the intent stays pending: no ledger leg, no
// payment.succeeded) and hand the outcome back, the card-payment use case would redirect the
// payer, and the processor's later verdict (its webhook, or `recover` looking the intent up
// by its key instead of failing it) would enter through `record` with a succeeded or failed
// outcome, guarded by `status = 'pending'` exactly like a late answer today.

import { TOPICS } from '@paygrid/contracts';
import {
  emitEvent,
  requestTransaction,
  toMinor,
  type Clock,
  type Database,
  type Tx,
} from '@paygrid/platform';
import { paymentLegs, postEntries, refundLegs } from '../ledger/ledger';
import { serializeTransaction, type TransactionRow } from '../transactions/transaction';
import { markFailed, markSucceeded, transactionById } from './intents.sql';

/** What a processor answered for one intent (a ConnectorOutcome, or a failure we decided). */
export type IntentOutcome =
  | { status: 'succeeded'; processor_reference: string; credential?: string }
  | { status: 'failed'; code: string; message: string; processor_reference: string | null };

/** The work of tx2 that belongs to the caller, in the transaction that records the outcome. */
export interface RecordEffects {
  /**
   * Runs first. False means another run already recorded this intent (a recovery racing a
   * late answer): nothing else happens and the transaction is answered as it stands.
   */
  claim?(tx: Tx, now: Date): Promise<boolean>;
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
  /** Last, for either outcome (e.g. schedule a mandate's next cycle or retry). */
  onRecorded?(tx: Tx, row: TransactionRow): Promise<void>;
}

/** One intent's call and record, given what tx1 wrote (`W`). */
export interface IntentSteps<W, R> {
  call(written: W): Promise<IntentOutcome>;
  record(tx: Tx, written: W, outcome: IntentOutcome): Promise<R>;
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
  async resume<W, R>(written: W, steps: IntentSteps<W, R>): Promise<R> {
    assertOutsideTransaction(this.db);
    let outcome: IntentOutcome;
    try {
      outcome = await steps.call(written);
    } catch (error) {
      if (steps.callFailed) return steps.callFailed(written, error);
      throw error;
    }
    return this.db.transaction((tx) => steps.record(tx, written, outcome));
  }

  /**
   * Step 3 on the intent's transaction row, in the caller's transaction: pending -> succeeded
   * with its ledger legs (a payment's or a refund's) and event, or pending -> failed with its
   * event, plus the caller's effects. Idempotent: a second record of the same intent changes
   * nothing and answers the row as the first left it.
   */
  async record(
    tx: Tx,
    id: string,
    outcome: IntentOutcome,
    effects: RecordEffects = {},
  ): Promise<TransactionRow> {
    const now = this.clock.now();
    if (effects.claim && !(await effects.claim(tx, now))) return transactionById(tx, id);
    const emit = effects.emit ?? ((t: Tx, row: TransactionRow, at: Date) => emitPaymentEvent(t, row, at));
    let row: TransactionRow;
    if (outcome.status === 'succeeded') {
      const updated = await markSucceeded(tx, id, outcome.processor_reference, now);
      if (!updated) return transactionById(tx, id);
      row = effects.onSucceeded ? await effects.onSucceeded(tx, updated, outcome) : updated;
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
    } else {
      const failed = await markFailed(tx, id, outcome, now);
      if (!failed) return transactionById(tx, id);
      row = failed;
      if (effects.onFailed) await effects.onFailed(tx, row);
    }
    await emit(tx, row, now);
    if (effects.onRecorded) await effects.onRecorded(tx, row);
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

/** payment.succeeded | payment.failed with the transaction, through the outbox. */
export async function emitPaymentEvent(tx: Tx, row: TransactionRow, now: Date): Promise<void> {
  await emitEvent(tx, TOPICS.paymentsEvents, {
    type: row.status === 'succeeded' ? 'payment.succeeded' : 'payment.failed',
    account: row.account_id,
    livemode: row.livemode,
    ...(row.merchant_id ? { merchant: row.merchant_id } : {}),
    object: serializeTransaction(row),
    at: now,
  });
}
