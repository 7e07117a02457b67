// The claims of the hosted forms' tokens (checkout-form-token.ts, invoice-form-token.ts) as
// parts of the statement that writes the card payment's intent (intents.sql.ts IntentClaim):
// `seen`, what the claim decides on, then `claim`, the token's row, written only when `seen`
// allows it and the payment may be written (`payable`, the intent statement's: a refusal
// writes nothing, IntentClaim). Each runs after its form's lock, in a statement of its own sent just behind the
// lock's, in the same write (IntentClaim.lock): a statement's snapshot is taken when it
// starts, so one that starts after the lock was granted sees what the lock's previous holder
// committed (a claim's row, a payment's completion), where a read in the locking statement
// itself would not.

import type { IntentClaim } from '../intents/intents.sql';

/** What a claim writes in the intent's statement; its decision is read by the form's token. */
export type ClaimQueries = Pick<IntentClaim<never>, 'lock' | 'queries' | 'decision'>;

/**
 * A checkout token's claim: whether the token was used, and with a completion `limit` (the
 * link row locked by `lock`) the link's completions and its submissions in flight
 * (unfinished, created after `since`); the token's row only when it was not used, the link is
 * `open`, and the completions plus those in flight leave a place. `on conflict do nothing`: a
 * submission of the same token committed after this statement's snapshot (a double click on
 * a link without a limit, whose claims take no lock) is not written twice; `claimed` is then
 * false though the token looked unused.
 */
export function checkoutClaim(claim: {
  tokenHash: string;
  link: string;
  since: Date;
  limit: number | null;
  open: boolean;
  now: Date;
}): ClaimQueries {
  return {
    lock:
      claim.limit === null
        ? undefined
        : { sql: 'select 1 from payments.payment_links where id = $1 for update', params: [claim.link] },
    queries: [
      [
        'seen',
        {
          sql: `select exists (select 1 from payments.checkout_submissions where token_hash = $1) as token_used,
                  case when $4::int is null then 0 else (select completions_count from payments.payment_links
                        where id = $2) end as completions,
                  case when $4::int is null then 0 else (select count(*)::int from payments.checkout_submissions
                        where payment_link_id = $2 and transaction_id is null and created_at > $3) end as in_flight`,
          params: [claim.tokenHash, claim.link, claim.since, claim.limit],
        },
      ],
      [
        'claim',
        {
          sql: `insert into payments.checkout_submissions (token_hash, payment_link_id, created_at)
                select $1, $2, $3 from seen
                 where not seen.token_used and $5::boolean and ($4::int is null or seen.completions + seen.in_flight < $4::int)
                   and exists (select 1 from payable)
                on conflict (token_hash) do nothing returning token_hash`,
          params: [claim.tokenHash, claim.link, claim.now, claim.limit, claim.open],
        },
      ],
    ],
    decision: `exists (select 1 from payable) as payable,
               (select token_used from seen) as token_used, (select completions from seen) as completions,
               (select in_flight from seen) as in_flight, exists (select 1 from claim) as claimed`,
  };
}

/**
 * An invoice form's claim: whether the form token was used, the transaction that paid the
 * invoice token if one did, and whether another submission of it is in flight (unfinished,
 * created after `since`); the form token's row only when none of them holds.
 */
export function invoiceClaim(claim: {
  formHash: string;
  invoiceHash: string;
  since: Date;
  now: Date;
}): ClaimQueries {
  return {
    queries: [
      [
        'seen',
        {
          sql: `select exists (select 1 from payments.invoice_payment_submissions where form_token_hash = $1) as used,
                  (select transaction_id from payments.invoice_payment_submissions
                    where invoice_token_hash = $2 and succeeded limit 1) as paid,
                  exists (select 1 from payments.invoice_payment_submissions
                    where invoice_token_hash = $2 and transaction_id is null and created_at > $3) as busy`,
          params: [claim.formHash, claim.invoiceHash, claim.since],
        },
      ],
      [
        'claim',
        {
          sql: `insert into payments.invoice_payment_submissions (form_token_hash, invoice_token_hash, created_at)
                select $1, $2, $3 from seen where not seen.used and seen.paid is null and not seen.busy
                   and exists (select 1 from payable)
                returning form_token_hash`,
          params: [claim.formHash, claim.invoiceHash, claim.now],
        },
      ],
    ],
    decision: `exists (select 1 from payable) as payable,
               (select used from seen) as used, (select paid from seen) as paid, (select busy from seen) as busy,
               exists (select 1 from claim) as claimed`,
  };
}
