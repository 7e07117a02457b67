// Payment links (docs/api.md §5) and the single-use tokens of their hosted checkout page.
// Transactions already carry `payment_link` (1700000000210-ledger) with an index for the
// `?payment_link=` filter; nothing changes there.

import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PaymentLinks1700000000220 implements MigrationInterface {
  name = 'PaymentLinks1700000000220';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table payments.payment_links (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        merchant_id text,
        type text not null check (type in ('one_time', 'recurring')),
        amount bigint check (amount is null or (amount > 0 and amount <= 99999999999)),
        currency text not null,
        line_items jsonb,
        amount_total bigint not null check (amount_total > 0 and amount_total <= 99999999999),
        recurring jsonb,
        description text,
        max_completions integer check (max_completions is null or max_completions > 0),
        completions_count integer not null default 0,
        expires_at timestamptz,
        after_completion_redirect_url text,
        client_reference_id text,
        metadata jsonb not null default '{}',
        status text not null check (status in ('active', 'inactive', 'completed', 'expired')),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint payment_links_amount_or_items check ((amount is null) <> (line_items is null)),
        constraint payment_links_recurring check ((type = 'recurring') = (recurring is not null))
      )`);
    await runner.query(
      `create index payment_links_list on payments.payment_links (account_id, livemode, created_at desc, id desc)`,
    );
    // One row per checkout form token that was submitted: the token is single-use, and the
    // row remembers the transaction it paid, so a double submission shows the same result.
    await runner.query(`
      create table payments.checkout_submissions (
        token_hash text primary key,
        payment_link_id text not null references payments.payment_links (id),
        transaction_id text,
        created_at timestamptz not null default now()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table payments.checkout_submissions');
    await runner.query('drop table payments.payment_links');
  }
}
