// The statements of a refund's tx2 and of its recovery (refunds.service.ts); the refund
// transaction itself moves through the intent saga (intents/intents.sql.ts).

import type { Database, Tenant, Tx } from '@paygrid/platform';
import type { FinalOutcome } from '../intents/intent-saga';
import type { SqlPart } from '@paygrid/platform';
import type { RefundRow } from './refund';
import type { TransactionRow } from '../transactions/transaction';

/**
 * pending -> succeeded | failed (with the processor's reason), once: the guard of a refund's tx2,
 * sent with its refund transaction's move (RecordEffects.claim), which it lets happen only when
 * it moved the refund (no row: another run settled it already).
 */
export function settleRefund(id: string, outcome: FinalOutcome, now: Date): SqlPart {
  return outcome.status === 'succeeded'
    ? {
        sql: `update payments.refunds set status = 'succeeded', updated_at = $2 where id = $1 and status = 'pending' returning id`,
        params: [id, now],
      }
    : {
        sql: `update payments.refunds set status = 'failed', failure_reason = $2, updated_at = $3
               where id = $1 and status = 'pending' returning id`,
        params: [id, outcome.message, now],
      };
}

/** The refund as settleRefund left it (its row, with the columns settleRefund wrote). */
export function settledRefund<R extends RefundRow>(refund: R, outcome: FinalOutcome, now: Date): R {
  // Object.assign, not a leading spread: Node 20's slow path (docs/style.md, finding 56).
  return Object.assign({}, refund, {
    status: outcome.status,
    failure_reason: outcome.status === 'failed' ? outcome.message : refund.failure_reason,
    updated_at: now,
  });
}

/**
 * A failed refund gives the amount it reserved back to its payment: sent with the commit
 * (Tx.writeAtCommit), as nothing in its tx2 reads the payment's row afterwards.
 */
export function releaseReservation(tx: Tx, refund: RefundRow, now: Date): void {
  tx.writeAtCommit(
    `update payments.transactions set amount_refunded = amount_refunded - $2::bigint, updated_at = $3 where id = $1`,
    [refund.transaction_id, refund.amount, now],
  );
}

export async function refundById(tx: Tx, id: string): Promise<RefundRow> {
  const [row] = await tx.query<RefundRow>('select * from payments.refunds where id = $1', [id]);
  return row;
}

/** A pending refund with what recovery asks the processor by. */
export type StaleRefund = RefundRow & {
  /** The refunded payment's processor reference. */
  processor_reference: string | null;
  card_last4: string | null;
  /** The processor's id of the refund once it accepted it (pending there), else null. */
  refund_reference: string | null;
};

/**
 * Refunds left pending before `cutoff` and due for a check at `now` (never checked, or their
 * deferRefundCheck time has come), with the processor references and card last4.
 */
export function staleRefunds(db: Database, cutoff: Date, now: Date): Promise<StaleRefund[]> {
  return db.query<StaleRefund>(
    `select r.*, t.processor_reference, t.payment_method->>'last4' as card_last4,
            rt.processor_reference as refund_reference
       from payments.refunds r
       join payments.transactions t on t.id = r.transaction_id
       join payments.transactions rt on rt.id = r.refund_transaction_id
      where r.status = 'pending' and r.created_at < $1
        and (r.next_check_at is null or r.next_check_at <= $2)
      order by r.created_at limit 500`,
    [cutoff, now],
  );
}

/** The first wait after a check that left a refund pending; each further one doubles it. */
export const FIRST_RECHECK_MINUTES = 5;
/** The longest wait between two checks of one pending refund. */
export const LONGEST_RECHECK_HOURS = 6;

/**
 * A check left the refund pending (the processor still deciding, or no connection to ask
 * through): the next one waits 5, 10, 20 ... minutes, at most six hours. The processor's
 * webhook still settles it at once; this only bounds how often recovery asks.
 */
export async function deferRefundCheck(db: Database, id: string, now: Date): Promise<void> {
  await db.query(
    `update payments.refunds
        set recovery_checks = recovery_checks + 1,
            next_check_at = $2::timestamptz + least(
              make_interval(mins => $3::int) * power(2, least(recovery_checks, 16)),
              make_interval(hours => $4::int))
      where id = $1 and status = 'pending'`,
    [id, now, FIRST_RECHECK_MINUTES, LONGEST_RECHECK_HOURS],
  );
}

/**
 * The processor accepted the refund and decides later: its reference goes on the pending
 * refund transaction (where recovery looks it up by, and what tells a retry of the request that
 * the processor has it). Changes nothing once the refund left pending.
 */
export async function markRefundAccepted(
  tx: Tx,
  refund: RefundRow,
  reference: string,
  now: Date,
): Promise<void> {
  await tx.query(
    `update payments.transactions set processor_reference = $2, updated_at = $3
      where id = $1 and status = 'pending' and processor_reference is distinct from $2`,
    [refund.refund_transaction_id, reference, now],
  );
}

/** Whether the processor holds this pending refund (it answered `pending` with a reference). */
export async function acceptedByProcessor(tx: Tx, refund: RefundRow): Promise<boolean> {
  const [row] = await tx.query<{ accepted: boolean }>(
    `select processor_reference is not null as accepted from payments.transactions where id = $1`,
    [refund.refund_transaction_id],
  );
  return row?.accepted === true;
}

/** What reserveAmount found: the reservation, or the Idempotency-Key's earlier refund. */
export interface Reservation {
  /** Undefined when the guard refused (or there was an earlier refund). */
  reservation?: TransactionRow & { refund_amount: string };
  /** The refund the same Idempotency-Key made in the last 24 hours (nothing reserved then). */
  earlier?: RefundRow;
}

/**
 * Reserves a refund's amount on the payment in one guarded statement: `amount`, or by default
 * all that remains, read under the row's lock in the same statement (a refund that committed
 * first is seen, the remainder never taken twice). With an Idempotency-Key, the same statement
 * looks up the key's refund of the last 24 hours and reserves nothing when there is one: a
 * round trip fewer than a statement of its own.
 */
export async function reserveAmount(
  tx: Tx,
  tenant: Tenant,
  transaction: string,
  amount: number | undefined,
  now: Date,
  idempotencyKey?: string,
): Promise<Reservation> {
  const params: unknown[] =
    amount !== undefined
      ? [transaction, tenant.account, tenant.livemode, String(amount), now]
      : [transaction, tenant.account, tenant.livemode, now];
  const queries: string[] = [];
  if (idempotencyKey !== undefined) {
    params.push(idempotencyKey);
    queries.push(`earlier as (
       select * from payments.refunds where account_id = $2 and livemode = $3 and idempotency_key = $${params.length}
          and created_at > now() - interval '24 hours')`);
  }
  const unkeyed = idempotencyKey !== undefined ? 'and not exists (select 1 from earlier)' : '';
  let reserve: string;
  if (amount !== undefined) {
    reserve = `update payments.transactions set amount_refunded = amount_refunded + $4::bigint, updated_at = $5
          where id = $1 and account_id = $2 and livemode = $3 and type = 'payment' and status = 'succeeded'
            and amount_refunded + amount_disputed + $4::bigint <= amount ${unkeyed}
          returning *, $4::bigint::text as refund_amount`;
  } else {
    queries.push(`remaining as (
           select id, amount - amount_refunded - amount_disputed as left_over from payments.transactions
            where id = $1 and account_id = $2 and livemode = $3 and type = 'payment' and status = 'succeeded'
              ${unkeyed}
            for update)`);
    reserve = `update payments.transactions t set amount_refunded = t.amount_refunded + r.left_over, updated_at = $4
           from remaining r
          where t.id = r.id and r.left_over > 0 and t.amount_refunded + t.amount_disputed + r.left_over <= t.amount
          returning t.*, r.left_over::text as refund_amount`;
  }
  if (idempotencyKey === undefined) {
    const [reservation] = await tx.query<TransactionRow & { refund_amount: string }>(
      queries.length ? `with ${queries.join(', ')} ${reserve}` : reserve,
      params,
    );
    return { reservation };
  }
  queries.push(`reserved as (${reserve})`);
  const [answer] = await tx.query<
    TransactionRow & { refund_amount: string | null; earlier: Record<string, unknown> | null }
  >(
    `with ${queries.join(', ')}
     select reserved.*, (select to_jsonb(earlier) from earlier) as earlier
       from (select 1) one left join reserved on true`,
    params,
  );
  const { earlier, ...reservation } = answer;
  return {
    reservation:
      reservation.id === null ? undefined : (reservation as TransactionRow & { refund_amount: string }),
    earlier: earlier ? refundOfJson(earlier) : undefined,
  };
}

/**
 * A refund's row as to_jsonb wrote it, typed as pg reads the row: its amount as a string (a
 * bigint; JSON numbers are exact below 2^53, and amounts are at most MAX_AMOUNT, about 10^11:
 * anything else is refused), timestamps as Dates.
 */
function refundOfJson(json: Record<string, unknown>): RefundRow {
  const amount = json.amount;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount)) {
    throw new Error(`refund ${String(json.id)}: amount ${String(amount)} is not an exact integer`);
  }
  // Object.assign, not a leading spread: Node 20's slow path (docs/style.md, finding 56).
  return Object.assign({}, json as unknown as RefundRow, {
    amount: String(amount),
    created_at: new Date(json.created_at as string),
    updated_at: new Date(json.updated_at as string),
  });
}
