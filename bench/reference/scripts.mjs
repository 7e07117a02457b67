// The minimal SQL of each hot path (issue 15, "the references in the same run"), as pgbench
// scripts over the service's own tables: what the operation must write, in as few commits as
// the crash-safety rules allow (two around a processor call, one elsewhere), each commit one
// statement (data-modifying CTEs) so one round trip. Nothing here is what the service runs
// today (bench/pgbench-baseline.mjs replays that); it is the floor the service is compared with.
//
// pgbench reads `:name` as a variable anywhere in a command, so JSON payloads have no colon
// touching a word (see `payload`). Variables set with \set persist per client across
// transactions: `:i` counts a client's transactions (-D i=-1 to start).
//
// Rows written by these scripts carry a `ref` tag in their ids and are left in the tables
// (the run's database is dropped at the end). Outbox rows are inserted already published and
// mail rows already sent, so the platform's relays and workers stay idle (as in
// pgbench-baseline.mjs).

/** A JSON payload of about `bytes` bytes, safe inside a pgbench command and a SQL literal. */
export function payload(type, bytes = 1300) {
  const body = JSON.stringify({
    id: 'evt_reference',
    object: 'event',
    type,
    livemode: false,
    created_at: '2026-01-01T00 00 00.000Z',
    data: { object: { padding: 'x'.repeat(Math.max(0, bytes - 160)) } },
  });
  return body.replace(/'/g, "''").replace(/:(?=\S)/g, ': ');
}

/**
 * Checkout, two commits around the processor call. Commit 1: the form's token claimed (its
 * primary key refuses a replay) and the pending payment recorded, so a crash during the
 * processor call leaves a pending row to reconcile. Commit 2: the outcome, both ledger legs,
 * the event (outbox) and the link's completion count. Plus the page's read (GET /pay/:link).
 * The client's link is `:linkprefix::text || :client_id::text`.
 */
export const checkoutScript = () => `-- GET /pay/:link
select l.id, l.amount, l.currency, l.description, l.status, m.business_name
  from payments.payment_links l left join payments.merchants m on m.id = l.merchant_id
 where l.id = :linkprefix::text || :client_id::text;
-- POST /pay/:link, commit 1 (before the processor call)
with claim as (
  insert into payments.checkout_submissions (token_hash, payment_link_id, created_at)
  select md5(random()::text || clock_timestamp()::text), l.id, now() from payments.payment_links l
   where l.id = :linkprefix::text || :client_id::text and l.status = 'active'
     and (l.max_completions is null or l.completions_count < l.max_completions)
  returning token_hash, payment_link_id)
insert into payments.transactions (id, account_id, livemode, merchant_id, type, status, amount, currency,
  payment_link, payment_method, metadata, created_at, updated_at)
select 'txn_ref' || replace(gen_random_uuid()::text, '-', ''), l.account_id, l.livemode, l.merchant_id, 'payment',
  'pending', l.amount, l.currency, l.id, '{"brand":"visa","last4":"4242","exp_month":12,"exp_year":2099}'::jsonb,
  '{}'::jsonb, now(), now()
  from claim c join payments.payment_links l on l.id = c.payment_link_id
returning id as txn, (select token_hash from claim) as tok \\gset
-- (the processor call)
-- commit 2 (the outcome)
with t as (
  update payments.transactions set status = 'succeeded', processor_reference = 'sandbox_' || id, updated_at = now()
   where id = :txn and status = 'pending' returning *),
legs as (
  insert into payments.ledger_entries (account_id, livemode, transaction_id, ledger_account, direction, amount, currency, created_at)
  select t.account_id, t.livemode, t.id, l.ledger_account, l.direction, t.amount, t.currency, now()
    from t cross join (values ('processor_clearing', 'debit'), ('merchant_balance:' || coalesce((select merchant_id from t), (select account_id from t)), 'credit'))
      as l (ledger_account, direction)),
event as (
  insert into payments.outbox (topic, key, message_id, payload, published_at)
  select 'payments.events.v1', t.account_id, 'evt_' || t.id, '${payload('payment.succeeded')}'::jsonb, now() from t),
link as (
  update payments.payment_links set completions_count = completions_count + 1, updated_at = now()
   where id = (select payment_link from t)),
submission as (
  update payments.checkout_submissions set transaction_id = (select id from t) where token_hash = :tok)
select count(*) from t;
`;

/**
 * Full refund, one commit: the payment's refunded amount raised only while it stays within the
 * amount (the guard that makes concurrent refunds safe), the refund row, its two ledger legs
 * and the event. The client's payment: `:payprefix || n`, n = client + clients × its transactions so far.
 */
export const refundScript = () => `\\set i :i + 1
\\set n :client_id + :clients * :i
with p as (
  update payments.transactions set amount_refunded = amount, updated_at = now()
   where id = :payprefix::text || :n::text and type = 'payment' and status = 'succeeded'
     and amount_refunded = 0
  returning *),
r as (
  insert into payments.transactions (id, account_id, livemode, merchant_id, type, status, amount, currency,
    refunded_transaction, metadata, created_at, updated_at)
  select 'txn_refref' || replace(gen_random_uuid()::text, '-', ''), p.account_id, p.livemode, p.merchant_id, 'refund',
    'succeeded', p.amount, p.currency, p.id, '{}'::jsonb, now(), now() from p
  returning *),
legs as (
  insert into payments.ledger_entries (account_id, livemode, transaction_id, ledger_account, direction, amount, currency, created_at)
  select r.account_id, r.livemode, r.id, l.ledger_account, l.direction, r.amount, r.currency, now()
    from r cross join (values ('merchant_balance:' || coalesce((select merchant_id from r), (select account_id from r)), 'debit'),
                              ('processor_clearing', 'credit')) as l (ledger_account, direction)),
event as (
  insert into payments.outbox (topic, key, message_id, payload, published_at)
  select 'payments.events.v1', r.account_id, 'evt_' || r.id, '${payload('refund.succeeded')}'::jsonb, now() from r)
select count(*) from r;
`;

/**
 * Invoice create-finalize-send, one commit: the account's next number (its counter row, which
 * serialises finalizations of one account, as in the service), the invoice with its lines
 * (jsonb in the row, copied from the model invoice `:model` of the service) and totals, three
 * events (created, finalized, sent) and the mail row. The customer: one of the account's
 * `:customers` (array literal), by client.
 */
export const invoiceScript = () => `with n as (
  update invoicing.invoice_number_counters set last_number = last_number + 1
   where account_id = :account and livemode = false returning last_number),
m as (select * from invoicing.invoices where id = :model),
i as (
  insert into invoicing.invoices (id, account_id, livemode, customer_id, status, number, currency, collection_method,
    days_until_due, due_date, description, lines, discount, subtotal, discount_total, tax_total, total, amount_paid,
    amount_due, seller_name, seller, customer_snapshot, page_token, send_count, finalized_at, sent_at, metadata,
    created_at, updated_at)
  select 'inv_ref' || replace(gen_random_uuid()::text, '-', ''), m.account_id, false,
    (:customers::text[])[1 + :client_id::int % cardinality(:customers::text[])], 'open',
    :numprefix::text || '-' || lpad(n.last_number::text, greatest(6, length(n.last_number::text)), '0'), m.currency, m.collection_method, m.days_until_due,
    now() + make_interval(days => coalesce(m.days_until_due, 30)), m.description, m.lines, m.discount, m.subtotal,
    m.discount_total, m.tax_total, m.total, 0, m.total, m.seller_name, m.seller, m.customer_snapshot,
    md5(random()::text || clock_timestamp()::text), 1, now(), now(), '{}'::jsonb, now(), now()
    from m, n
  returning *),
events as (
  insert into invoicing.outbox (topic, key, message_id, payload, published_at)
  select 'invoicing.events.v1', i.account_id, 'evt_' || e.type || i.id, '${payload('invoice.event')}'::jsonb, now()
    from i cross join (values ('c'), ('f'), ('s')) as e (type)),
mail as (
  insert into invoicing.mail_queue (id, account_id, livemode, send_key, message_id, to_addresses, subject, text_body,
    status, next_attempt_at, sent_at, created_at, updated_at)
  select 'mail_' || i.id, i.account_id, false, 'invoice.sent:' || i.id, '<' || i.id || '@reference>', array['ap@bench.test'],
    'Invoice ' || i.number, 'Your invoice ' || i.number || ' is attached.', 'sent', now(), now(), now(), now() from i)
select count(*) from i;
`;

/**
 * One renewal, one commit: the oldest due subscription of the test clock `:clock` claimed
 * (FOR UPDATE SKIP LOCKED on the partial index subscriptions_clock_due, as the engine's
 * claim), the account's next number, the period row, the invoice (lines from the model),
 * four outbox rows (invoice created and finalized, the charge command, the subscription's
 * event) and the subscription moved to its next period.
 */
export const renewalScript = () => `with s as (
  select * from invoicing.subscriptions where test_clock = :clock and next_action_at <= now()
   order by next_action_at limit 1 for update skip locked),
n as (
  update invoicing.invoice_number_counters set last_number = last_number + 1
   where account_id = (select account_id from s) and livemode = false returning last_number),
m as (select * from invoicing.invoices where id = :model),
i as (
  insert into invoicing.invoices (id, account_id, livemode, customer_id, status, number, currency, collection_method,
    days_until_due, due_date, lines, discount, subtotal, discount_total, tax_total, total, amount_paid, amount_due,
    subscription_id, period_start, period_end, seller_name, seller, customer_snapshot, page_token, finalized_at,
    metadata, created_at, updated_at)
  select 'inv_rnw' || replace(gen_random_uuid()::text, '-', ''), s.account_id, false, s.customer_id, 'open',
    :numprefix::text || '-' || lpad(n.last_number::text, greatest(6, length(n.last_number::text)), '0'), s.currency, 'charge_automatically', null, null,
    m.lines, null, m.subtotal, 0, m.tax_total, m.subtotal + m.tax_total, 0, m.subtotal + m.tax_total, s.id,
    s.next_action_at, s.next_action_at + interval '1 month', m.seller_name, m.seller, m.customer_snapshot,
    md5(random()::text || clock_timestamp()::text), now(), '{}'::jsonb, now(), now()
    from s, n, m
  returning *),
period as (
  insert into invoicing.subscription_periods (subscription_id, period_index, account_id, livemode, test_clock,
    period_start, period_end, billed_from, outcome, invoice_id, amount, payment_status, created_at)
  select s.id, s.next_period_index, s.account_id, false, s.test_clock, i.period_start, i.period_end, i.period_start,
    'invoiced', i.id, i.total, 'pending', now() from s, i),
events as (
  insert into invoicing.outbox (topic, key, message_id, payload, published_at)
  select e.topic, i.account_id, 'evt_' || e.type || i.id, '${payload('invoice.event')}'::jsonb, now()
    from i cross join (values ('invoicing.events.v1', 'c'), ('invoicing.events.v1', 'f'),
                              ('payments.commands.v1', 'm'), ('invoicing.events.v1', 's')) as e (topic, type)),
next as (
  update invoicing.subscriptions su set next_period_index = su.next_period_index + 1,
         current_period_index = su.next_period_index, current_period_start = i.period_start,
         current_period_end = i.period_end, next_action_at = i.period_end, latest_invoice = i.id, updated_at = now()
    from s, i where su.id = s.id)
select count(*) from i;
`;

/** The page of GET /v1/transactions?limit=100&status=succeeded&currency=EUR&type=payment (paginate's SQL). */
export const listTransactionsScript = () => `select * from payments.transactions
 where account_id = :account and livemode = false and type = 'payment' and status = 'succeeded' and currency = 'EUR'
 order by created_at desc, id desc limit 101;
`;

/** The page of GET /v1/invoices?limit=100&status=paid&customer=…&created[gte]=… (paginate's SQL). */
export const listInvoicesScript = () => `select * from invoicing.invoices
 where account_id = :account and livemode = false and status = 'paid'
   and customer_id = (:customers::text[])[1 + :client_id::int % cardinality(:customers::text[])]
   and created_at >= :since::timestamptz
 order by created_at desc, id desc limit 101;
`;
