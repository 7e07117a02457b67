// The statements of the intent saga (intent-saga.ts) on payments.transactions. A pending row
// is the intent of one processor call; it leaves `pending` once, to succeeded or failed, or
// waits in `requires_action` while the payer authenticates (3-D Secure) and leaves that once.
// The final moves are guarded by `status in ('pending', 'requires_action')` (NOT_FINAL), so a
// racing recovery, the payer's return, a processor webhook and a late outcome cannot both
// record (the second gets no row and reloads what the first recorded).

import { newId, placeSql, type Database, type SqlPart, type Tenant, type Tx } from '@paygrid/platform';
import type { PaymentIntent, TransactionRow } from '../transactions/transaction';

const INTENT_COLUMNS = `id, account_id, livemode, merchant_id, type, status, amount, currency, payment_link, mandate,
       invoice, customer, client_reference_id, reference, payment_method, metadata, mandate_terms, created_at, updated_at,
       receipt_email`;

/** An intent's row as values: `merchant` is the merchant's expression; $4 is the merchant asked for. */
const intentRow = (merchant: string) =>
  `$1, $2, $3, ${merchant}, 'payment', 'pending', $5::bigint, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14::jsonb,
       $16::jsonb, $15, $15, $17`;

function intentValues(tenant: Tenant, intent: PaymentIntent, now: Date): unknown[] {
  return [
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
    now,
    intent.mandate_terms ? JSON.stringify(intent.mandate_terms) : null,
    intent.receipt_email ?? null,
  ];
}

/** Writes a pending payment (tx1 of a charge). */
export async function insertPaymentIntent(
  tx: Tx,
  tenant: Tenant,
  intent: PaymentIntent,
  now: Date,
): Promise<TransactionRow> {
  const [row] = await tx.query<TransactionRow>(
    `insert into payments.transactions (${INTENT_COLUMNS}) values (${intentRow('$4')}) returning *`,
    intentValues(tenant, intent, now),
  );
  return row;
}

/**
 * A hosted form's token, claimed in the statement that writes its card payment's intent (tx1,
 * writeCardIntent): WITH queries sent before the intent's insert, one of them named `claim`,
 * the claim's write, whose rows let the intent be written (none: no intent); `decision`, a
 * select-list over them (what decided the claim), answered as JSON, which `decide` reads. The
 * claim's write reads `payable`, a query of the statement's that answers a row when the
 * payment may be written (its merchant's checks): a claim refused for the merchant's sake is
 * not written, so that tx1's COMMIT can ride behind the statement (writeCardIntent `last`).
 */
export interface IntentClaim<D> {
  /**
   * A statement sent just before the claim's, in the same write (Tx.queryAfter), whose answer
   * is not read: the form's lock. The claim's statement starts once it is granted, so its
   * snapshot holds what the lock's previous holder committed.
   */
  lock?: SqlPart;
  queries: [name: string, query: SqlPart][];
  decision: string;
  decide(decision: Record<string, unknown>): D;
}

/** A claim alone, without an intent (a form posted without a usable card). */
export async function writeClaim<D>(tx: Tx, claim: IntentClaim<D>): Promise<D> {
  const values: unknown[] = [];
  const queries = claim.queries.map(([name, query]) => `${name} as (${placeSql(query, values)})`);
  const [{ decision }] = await tx.queryAfter<{ decision: Record<string, unknown> }>(
    claim.lock,
    // No payment here: nothing of a merchant's to check.
    `with payable as (select 1), ${queries.join(', ')}
     select to_jsonb(d) as decision from (select ${claim.decision}) d`,
    values,
  );
  return claim.decide(decision);
}

/** writeCardIntent's statement's row: the intent's columns (null when not written) and why. */
type IntentAnswer = TransactionRow & {
  merchant_found: string | null;
  merchant_onboarding_status: string | null;
  claim_decision?: Record<string, unknown>;
};

/** What writeCardIntent found: the intent, or why it was not written. */
export interface CardIntent {
  /** Undefined when the claim or the merchant refused it (nothing was written for it then). */
  row: TransactionRow | undefined;
  /** The merchant paid: the one asked for, else the account's default; undefined when none. */
  merchant: { id: string; onboarding_status: string } | undefined;
  /** The claim's decision (IntentClaim), when there was a claim. */
  decision: Record<string, unknown> | undefined;
}

/**
 * Writes a card payment's pending intent (tx1 of chargeCard) in one statement, with what
 * decides whether it may be written: the merchant paid (`intent.merchant`, else the account's
 * default), which a live payment needs active, and the form's claim, when there is one. The
 * intent is written only when both hold (and when `merchantRequired`, only for a merchant that
 * exists); the caller reads why not from the answer and refuses. A refusal writes nothing (the
 * claim is written only when the merchant's checks pass too: `payable`), so when the statement
 * is tx1's `last`, its COMMIT leaves in the same write (Tx.queryCommitting) and tx1 is one round
 * trip: nothing else may be sent in tx1 then. The merchant's read, the claim's read and write
 * and the intent's insert were four statements of a checkout's tx1, each a round trip
 * (bench/README.md "The checkout's statements").
 */
export async function writeCardIntent(
  tx: Tx,
  tenant: Tenant,
  intent: PaymentIntent,
  now: Date,
  options: { merchantRequired: boolean; claim?: IntentClaim<unknown>; last?: boolean },
): Promise<CardIntent> {
  const { claim } = options;
  const values = intentValues(tenant, intent, now);
  values.push(options.merchantRequired);
  // By its primary key, or by the partial unique index of the account's default merchant.
  const which = intent.merchant ? 'id = $4' : 'is_default and $4::text is null';
  // The merchant's CTE is `payee`: a quoted merchant.id would read as an event type to the
  // event-contract suite's scan of the sources (tests/integration/event-contract.test.ts).
  const queries = [
    `payee as (
       select id, onboarding_status from payments.merchants where account_id = $2 and livemode = $3 and ${which})`,
    `payable as (
       select payee.id from (select 1) one left join payee on true
        where (payee.id is not null or not $18::boolean) and (not $3 or payee.onboarding_status = 'active'))`,
    ...(claim?.queries ?? []).map(([name, query]) => `${name} as (${placeSql(query, values)})`),
    `intent as (
       insert into payments.transactions (${INTENT_COLUMNS})
       select ${intentRow('payable.id')}
         from payable ${claim ? 'where exists (select 1 from claim)' : ''}
       returning *)`,
  ];
  const decision = claim ? `, (select to_jsonb(d) from (select ${claim.decision}) d) as claim_decision` : '';
  const sql = `with ${queries.join(', ')}
     select intent.*, (select id from payee) as merchant_found,
            (select onboarding_status from payee) as merchant_onboarding_status${decision}
       from (select 1) one left join intent on true`;
  const [answer] = options.last
    ? await tx.queryCommitting<IntentAnswer>(claim?.lock, sql, values)
    : await tx.queryAfter<IntentAnswer>(claim?.lock, sql, values);
  const { merchant_found, merchant_onboarding_status, claim_decision, ...row } = answer;
  return {
    row: row.id === null ? undefined : (row as TransactionRow),
    merchant:
      merchant_found === null
        ? undefined
        : { id: merchant_found, onboarding_status: merchant_onboarding_status ?? '' },
    decision: claim_decision,
  };
}

/** The statuses an intent can still leave; requires_action is one (the payer may still pay). */
const NOT_FINAL = `status in ('pending', 'requires_action')`;

/**
 * What moves with an intent, in the statement that moves it (one round trip): `claim`, a
 * caller's guard written before the move, which lets the intent move only if it returns a row
 * (a refund's own row leaving pending, a stored-card attempt's); `along`, on a move to
 * succeeded only, a write over `moved` (the intent's row as moved) returning at most one row,
 * answered as JSON (a payment link's completion count).
 */
export interface MoveWith {
  claim?: SqlPart;
  along?: SqlPart;
}

/** An intent moved, and the row its `along` write returned (as JSON; null when none). */
export interface Moved {
  row: TransactionRow;
  along: Record<string, unknown> | null;
}

/**
 * The intent `id` moved by `set` (its `$n` counting from $2; $1 is the id) where `guard` holds
 * and `with.claim` let it; undefined when it did not move.
 */
async function move(
  tx: Tx,
  id: string,
  set: { sql: string; params: unknown[]; guard: string },
  moving: MoveWith = {},
): Promise<Moved | undefined> {
  const { claim, along } = moving;
  const values: unknown[] = [id, ...set.params];
  const update = `update payments.transactions set ${set.sql} where id = $1 and ${set.guard}`;
  if (!claim && !along) {
    const [row] = await tx.query<TransactionRow>(`${update} returning *`, values);
    return row && { row, along: null };
  }
  const queries: string[] = [];
  if (claim) queries.push(`claim as (${placeSql(claim, values)})`);
  queries.push(`moved as (${update}${claim ? ' and exists (select 1 from claim)' : ''} returning *)`);
  if (along) queries.push(`along as (${placeSql(along, values)})`);
  const [answer] = await tx.query<TransactionRow & { along?: Record<string, unknown> | null }>(
    `with ${queries.join(', ')}
     select moved.*${along ? ', (select to_jsonb(along) from along) as along' : ''} from moved`,
    values,
  );
  if (!answer) return undefined;
  const { along: alongRow, ...row } = answer;
  return { row: row as TransactionRow, along: alongRow ?? null };
}

/** pending -> requires_action; undefined when the intent is no longer pending. */
export async function markRequiresAction(
  tx: Tx,
  id: string,
  action: { processor_reference: string; redirect_url: string },
  now: Date,
  claim?: SqlPart,
): Promise<TransactionRow | undefined> {
  const moved = await move(
    tx,
    id,
    {
      sql: `status = 'requires_action', processor_reference = $2,
       authentication_url = $3, updated_at = $4`,
      params: [action.processor_reference, action.redirect_url, now],
      guard: `status = 'pending'`,
    },
    { claim },
  );
  return moved?.row;
}

/** pending | requires_action -> succeeded; undefined when the intent had already left them. */
export function markSucceeded(
  tx: Tx,
  id: string,
  processorReference: string,
  now: Date,
  moving?: MoveWith,
): Promise<Moved | undefined> {
  return move(
    tx,
    id,
    {
      sql: `status = 'succeeded', processor_reference = $2, updated_at = $3`,
      params: [processorReference, now],
      guard: NOT_FINAL,
    },
    moving,
  );
}

/** pending | requires_action -> failed (a null reference keeps the one recorded); undefined when final. */
export async function markFailed(
  tx: Tx,
  id: string,
  failure: { code: string; message: string; processor_reference: string | null },
  now: Date,
  claim?: SqlPart,
): Promise<TransactionRow | undefined> {
  const moved = await move(
    tx,
    id,
    {
      sql: `status = 'failed', failure_code = $2, failure_message = $3,
       processor_reference = coalesce($4, processor_reference), updated_at = $5`,
      params: [failure.code, failure.message, failure.processor_reference, now],
      guard: NOT_FINAL,
    },
    { claim },
  );
  return moved?.row;
}

export async function transactionById(db: Tx | Database, id: string): Promise<TransactionRow> {
  const [row] = await db.query<TransactionRow>('select * from payments.transactions where id = $1', [id]);
  return row;
}

/** A typed-card payment recovery asks the processor about. */
export type StaleCardPayment = Pick<
  TransactionRow,
  'id' | 'account_id' | 'livemode' | 'status' | 'processor_reference' | 'payment_method' | 'created_at'
>;

/**
 * How long recovery keeps asking the processor about a payment left requires_action (the payer
 * never came back): a processor's authentication session is long over by then, and nothing
 * can move without the payer. After it, only a processor webhook settles the payment.
 */
export const REQUIRES_ACTION_HORIZON_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Typed-card payments left pending since before `cutoff` (a crash between the call and tx2, an
 * answer lost), or requires_action and not asked about since `cutoff` (the payer may never
 * come back: each is asked once per recovery interval, not on every run, for a week at most).
 * Charges of a stored card (a mandate_charges row) are not among them: they are re-driven.
 */
export async function staleCardPayments(db: Database, cutoff: Date): Promise<StaleCardPayment[]> {
  return db.query<StaleCardPayment>(
    `select t.id, t.account_id, t.livemode, t.status, t.processor_reference, t.payment_method, t.created_at
       from payments.transactions t
      where t.type = 'payment'
        and ((t.status = 'pending' and t.created_at < $1)
          or (t.status = 'requires_action' and t.updated_at < $1 and t.created_at > $2))
        and not exists (select 1 from payments.mandate_charges c where c.transaction_id = t.id)
     order by t.created_at limit 500`,
    [cutoff, new Date(cutoff.getTime() - REQUIRES_ACTION_HORIZON_MS)],
  );
}

/** Notes that recovery asked about a requires_action payment (the next ask waits an interval). */
export async function touchRequiresAction(db: Database, id: string, now: Date): Promise<void> {
  await db.query(
    `update payments.transactions set updated_at = $2 where id = $1 and status = 'requires_action'`,
    [id, now],
  );
}
