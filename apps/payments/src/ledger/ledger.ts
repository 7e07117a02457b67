// The double-entry ledger behind transactions. Every money movement posts a balanced set of
// entries (sum of debits == sum of credits, per currency) in the same database transaction
// as the status change it records; entries are never updated or deleted (a mistake is fixed
// by a correcting posting, as TigerBeetle and Formance do).
//
// Accounts: `processor_clearing` (money held by / owed to the processor) and
// `merchant_balance:<merchant id>` (what the platform owes the merchant).
//   payment succeeded: debit processor_clearing, credit merchant_balance:<mer>
//   refund succeeded:  debit merchant_balance:<mer>, credit processor_clearing
//   dispute opened:    debit merchant_balance:<mer>, credit processor_clearing (the amount,
//                      and the processor's dispute fee when it reports one)
//   dispute won:       the amount (and any fee the processor gave back), reversed
// A dispute's postings carry its id (dispute_id) beside the disputed payment's transaction id.

import type { Tx } from '@paygrid/platform';

export type Direction = 'debit' | 'credit';

export interface Leg {
  ledger_account: string;
  direction: Direction;
  amount: bigint;
}

export const PROCESSOR_CLEARING = 'processor_clearing';

export const merchantBalance = (merchantOrAccount: string): string => `merchant_balance:${merchantOrAccount}`;

/** The legs of a succeeded payment. */
export function paymentLegs(merchantOrAccount: string, amount: bigint): Leg[] {
  return [
    { ledger_account: PROCESSOR_CLEARING, direction: 'debit', amount },
    { ledger_account: merchantBalance(merchantOrAccount), direction: 'credit', amount },
  ];
}

/** The legs of a succeeded refund: the payment's, reversed. */
export function refundLegs(merchantOrAccount: string, amount: bigint): Leg[] {
  return [
    { ledger_account: merchantBalance(merchantOrAccount), direction: 'debit', amount },
    { ledger_account: PROCESSOR_CLEARING, direction: 'credit', amount },
  ];
}

/**
 * What a dispute moves out of (opened) or back into (won) the merchant's balance: the disputed
 * amount plus a fee, each its own pair of legs so the fee stays visible in the entries.
 */
export function disputeLegs(
  merchantOrAccount: string,
  amount: bigint,
  fee: bigint,
  direction: 'withdraw' | 'reinstate',
): Leg[] {
  const pair = (value: bigint): Leg[] =>
    direction === 'withdraw' ? refundLegs(merchantOrAccount, value) : paymentLegs(merchantOrAccount, value);
  return [...(amount > 0n ? pair(amount) : []), ...(fee > 0n ? pair(fee) : [])];
}

export class UnbalancedPostingError extends Error {}

/** Refuses empty postings, non-positive legs and postings whose debits differ from credits. */
export function assertBalanced(legs: readonly Leg[]): void {
  if (legs.length < 2) throw new UnbalancedPostingError('a posting needs at least two legs');
  let debits = 0n;
  let credits = 0n;
  for (const leg of legs) {
    if (typeof leg.amount !== 'bigint' || leg.amount <= 0n) {
      throw new UnbalancedPostingError(`leg amounts must be positive bigints (${leg.ledger_account})`);
    }
    if (leg.direction === 'debit') debits += leg.amount;
    else credits += leg.amount;
  }
  if (debits !== credits) {
    throw new UnbalancedPostingError(`unbalanced posting: debits ${debits} != credits ${credits}`);
  }
}

export interface Posting {
  account: string;
  livemode: boolean;
  transaction: string;
  currency: string;
  legs: Leg[];
  at: Date;
  /** Set on a dispute's postings (posted against the disputed payment's transaction). */
  dispute?: string;
}

/** Writes a balanced posting in the caller's transaction, at its commit (one currency per posting). */
export async function postEntries(tx: Tx, posting: Posting): Promise<void> {
  assertBalanced(posting.legs);
  const params: unknown[] = [
    posting.account,
    posting.livemode,
    posting.transaction,
    posting.currency,
    posting.at,
    posting.dispute ?? null,
  ];
  const rows = posting.legs.map((leg) => {
    params.push(leg.ledger_account, leg.direction, leg.amount.toString());
    const n = params.length;
    return `($1, $2, $3, $${n - 2}, $${n - 1}, $${n}::bigint, $4, $5, $6)`;
  });
  // Append-only, and read by no transaction that writes it: sent with the commit's other
  // writes (Tx.writeAtCommit), a round trip fewer per posting.
  tx.writeAtCommit(
    `insert into payments.ledger_entries (account_id, livemode, transaction_id, ledger_account, direction, amount, currency, created_at, dispute_id)
     values ${rows.join(', ')}`,
    params,
  );
}

type Queryable = { query<T>(sql: string, params?: unknown[]): Promise<T[]> };

export interface Imbalance {
  transaction_id: string;
  currency: string;
  debits: string;
  credits: string;
}

/** Transactions whose entries do not balance per currency. Empty when the ledger is sound. */
export function ledgerImbalances(db: Queryable): Promise<Imbalance[]> {
  return db.query<Imbalance>(
    `select transaction_id, currency,
            sum(case when direction = 'debit' then amount else 0 end)::text as debits,
            sum(case when direction = 'credit' then amount else 0 end)::text as credits
       from payments.ledger_entries
      group by transaction_id, currency
     having sum(case when direction = 'debit' then amount else -amount end) <> 0`,
  );
}

export interface PostingMismatch {
  id: string;
  type: string;
  status: string;
  amount: string;
  posted: string;
}

/**
 * Succeeded transactions whose entries are missing or do not cover the amount, and
 * pending/failed ones that have entries (money moved only when the movement succeeded), but
 * for a refund reversed after it succeeded (refunds/refund-reversal.ts): its posting and the
 * correcting one, which together move nothing (each ledger account nets to zero, so the
 * debits are twice the amount). A dispute's postings are left out: they balance on their own
 * (ledgerImbalances) and are checked against the dispute by disputeMismatches.
 */
export function postingMismatches(db: Queryable): Promise<PostingMismatch[]> {
  return db.query<PostingMismatch>(
    `select t.id, t.type, t.status, t.amount::text as amount, coalesce(sum(e.amount) filter (where e.direction = 'debit'), 0)::text as posted
       from payments.transactions t
       left join payments.ledger_entries e on e.transaction_id = t.id and e.dispute_id is null
      group by t.id
     having (t.status = 'succeeded' and coalesce(sum(e.amount) filter (where e.direction = 'debit'), 0) <> t.amount)
         or (t.status <> 'succeeded' and count(e.id) > 0
             and not (t.type = 'refund' and t.status = 'failed'
                      and sum(e.amount) filter (where e.direction = 'debit') = 2 * t.amount
                      and not exists (
                        select 1 from payments.ledger_entries n
                         where n.transaction_id = t.id and n.dispute_id is null
                         group by n.ledger_account
                        having sum(case when n.direction = 'debit' then n.amount else -n.amount end) <> 0)))`,
  );
}

export interface DisputeMismatch {
  id: string;
  status: string;
  expected: string;
  posted: string;
}

/**
 * Disputes whose net withdrawal from the merchant's balance differs from what their state
 * says: open or lost, the amount plus the fee; won, only the fee the processor kept.
 */
export function disputeMismatches(db: Queryable): Promise<DisputeMismatch[]> {
  return db.query<DisputeMismatch>(
    `select d.id, d.status,
            (case when d.status = 'won' then d.fee - d.fee_returned else d.amount + d.fee end)::text as expected,
            coalesce(sum(case when e.direction = 'debit' then e.amount else -e.amount end), 0)::text as posted
       from payments.disputes d
       left join payments.ledger_entries e on e.dispute_id = d.id and e.ledger_account like 'merchant_balance:%'
      group by d.id
     having coalesce(sum(case when e.direction = 'debit' then e.amount else -e.amount end), 0)
            <> (case when d.status = 'won' then d.fee - d.fee_returned else d.amount + d.fee end)`,
  );
}
