import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Processor webhooks in and disputes (docs/api.md Part 2, processor webhooks; disputes).
 *
 * - processor_events: each event a processor sent, once per connection (the processor's event
 *   id is the dedupe key: a redelivery inserts nothing and applies nothing).
 * - disputes: one per processor dispute (unique per connection), states needs_response ->
 *   under_review -> won | lost (disputes/dispute.ts holds the transitions).
 * - transactions.amount_disputed: what an open or lost dispute holds back from refunds; the
 *   refund's guarded update checks amount_refunded + amount_disputed + x <= amount.
 * - ledger_entries.dispute_id: a dispute's postings hang off the disputed payment's transaction
 *   (its balance per transaction still nets to zero) and are told apart by this column, so the
 *   payment's own legs still cover exactly its amount (ledger.ts postingMismatches).
 */
export class ProcessorEvents1700000000260 implements MigrationInterface {
  name = 'ProcessorEvents1700000000260';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table payments.processor_events (
        id text primary key,
        connection_id text not null references payments.processor_connections (id),
        account_id text not null,
        livemode boolean not null,
        processor text not null,
        processor_event_id text not null,
        type text not null,
        outcome text not null,
        processor_created_at timestamptz not null,
        received_at timestamptz not null default now()
      )`);
    await runner.query(
      `create unique index processor_events_once on payments.processor_events (connection_id, processor_event_id)`,
    );
    await runner.query(`
      create table payments.disputes (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        merchant_id text,
        connection_id text not null references payments.processor_connections (id),
        transaction_id text not null references payments.transactions (id),
        processor_reference text not null,
        amount bigint not null check (amount > 0 and amount <= 99999999999),
        fee bigint not null default 0 check (fee >= 0),
        fee_returned bigint not null default 0 check (fee_returned >= 0),
        currency text not null,
        reason text not null,
        status text not null check (status in ('needs_response', 'under_review', 'won', 'lost')),
        evidence_due_by timestamptz,
        closed_at timestamptz,
        processor_updated_at timestamptz not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    await runner.query(
      `create unique index disputes_once on payments.disputes (connection_id, processor_reference)`,
    );
    await runner.query(
      `create index disputes_list on payments.disputes (account_id, livemode, created_at desc, id desc)`,
    );
    await runner.query(
      `create index disputes_by_transaction on payments.disputes (account_id, livemode, transaction_id, created_at desc, id desc)`,
    );
    await runner.query(
      `alter table payments.transactions add column amount_disputed bigint not null default 0 check (amount_disputed >= 0)`,
    );
    await runner.query(
      `alter table payments.ledger_entries add column dispute_id text references payments.disputes (id)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('alter table payments.ledger_entries drop column dispute_id');
    await runner.query('alter table payments.transactions drop column amount_disputed');
    await runner.query('drop table payments.disputes');
    await runner.query('drop table payments.processor_events');
  }
}
