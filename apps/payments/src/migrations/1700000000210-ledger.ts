// Transactions (payments and refunds), refunds, and the double-entry ledger behind them.
// The CHECK on amount_refunded is the last line of defence against over-refunds; the
// guarded UPDATE in refunds.service.ts is the first (it answers 422 before the CHECK fires).

import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Ledger1700000000210 implements MigrationInterface {
  name = 'Ledger1700000000210';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table payments.transactions (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        merchant_id text,
        type text not null check (type in ('payment', 'refund')),
        status text not null check (status in ('pending', 'succeeded', 'failed')),
        amount bigint not null check (amount > 0 and amount <= 99999999999),
        currency text not null,
        amount_refunded bigint not null default 0,
        refunded_transaction text references payments.transactions (id),
        payment_link text,
        mandate text,
        invoice text,
        customer text,
        client_reference_id text,
        payment_method jsonb,
        failure_code text,
        failure_message text,
        processor_reference text,
        metadata jsonb not null default '{}',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint transactions_refunded_range check (amount_refunded >= 0 and amount_refunded <= amount),
        constraint transactions_refund_has_parent check ((type = 'refund') = (refunded_transaction is not null))
      )`);
    await runner.query(
      `create index transactions_list on payments.transactions (account_id, livemode, created_at desc, id desc)`,
    );
    await runner.query(
      `create index transactions_by_merchant on payments.transactions (account_id, livemode, merchant_id, created_at desc, id desc)`,
    );
    await runner.query(
      `create index transactions_by_link on payments.transactions (account_id, livemode, payment_link, created_at desc, id desc) where payment_link is not null`,
    );
    await runner.query(
      `create index transactions_pending on payments.transactions (created_at) where status = 'pending'`,
    );
    await runner.query(`
      create table payments.refunds (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        transaction_id text not null references payments.transactions (id),
        refund_transaction_id text not null references payments.transactions (id),
        amount bigint not null check (amount > 0 and amount <= 99999999999),
        currency text not null,
        reason text check (reason in ('duplicate', 'fraudulent', 'requested_by_customer')),
        status text not null check (status in ('pending', 'succeeded', 'failed')),
        failure_reason text,
        metadata jsonb not null default '{}',
        idempotency_key text,
        request_hash text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    await runner.query(
      `create index refunds_list on payments.refunds (account_id, livemode, created_at desc, id desc)`,
    );
    await runner.query(`create index refunds_by_transaction on payments.refunds (transaction_id)`);
    await runner.query(
      `create unique index refunds_idempotency on payments.refunds (account_id, livemode, idempotency_key) where idempotency_key is not null`,
    );
    await runner.query(
      `create index refunds_pending on payments.refunds (created_at) where status = 'pending'`,
    );
    await runner.query(`
      create table payments.ledger_entries (
        id bigserial primary key,
        account_id text not null,
        livemode boolean not null,
        transaction_id text not null references payments.transactions (id),
        ledger_account text not null,
        direction text not null check (direction in ('debit', 'credit')),
        amount bigint not null check (amount > 0),
        currency text not null,
        created_at timestamptz not null default now()
      )`);
    await runner.query(
      `create index ledger_entries_by_transaction on payments.ledger_entries (transaction_id)`,
    );
    await runner.query(
      `create index ledger_entries_by_account on payments.ledger_entries (account_id, livemode, ledger_account, currency)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table payments.ledger_entries');
    await runner.query('drop table payments.refunds');
    await runner.query('drop table payments.transactions');
  }
}
