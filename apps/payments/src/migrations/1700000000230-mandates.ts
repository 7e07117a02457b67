// Mandates (recurring and on-demand charges of a stored card), the intent rows of their
// charges, transaction references (payments.commands.v1 exactly-once), single-use invoice
// payment forms, and the default merchant's name source. Released migrations are never
// edited: everything new for issue 4's second half lives here.

import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Mandates1700000000230 implements MigrationInterface {
  name = 'Mandates1700000000230';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table payments.mandates (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        merchant_id text,
        payment_link text,
        customer text,
        client_reference_id text,
        payer jsonb not null default '{}',
        payment_method jsonb not null,
        -- The processor's handle on the stored card; never the card number.
        credential text not null,
        amount bigint check (amount is null or (amount > 0 and amount <= 99999999999)),
        currency text not null,
        interval text check (interval in ('day', 'week', 'month', 'year')),
        interval_count integer check (interval_count is null or interval_count > 0),
        -- Cycle n is due at cycle_date(anchor_at, interval, interval_count, n); 0 = the first charge.
        anchor_at timestamptz,
        next_cycle integer not null default 1,
        next_attempt integer not null default 1,
        next_charge_at timestamptz,
        status text not null check (status in ('active', 'canceled', 'failed')),
        failure_code text,
        canceled_at timestamptz,
        metadata jsonb not null default '{}',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint mandates_schedule check ((interval is null) = (interval_count is null) and (interval is null) = (anchor_at is null)),
        constraint mandates_recurring_amount check (interval is null or amount is not null)
      )`);
    await runner.query(
      `create index mandates_list on payments.mandates (account_id, livemode, created_at desc, id desc)`,
    );
    await runner.query(
      `create index mandates_due on payments.mandates (next_charge_at) where status = 'active' and next_charge_at is not null`,
    );
    // One row per connector call on a mandate (the intent). The unique (mandate, cycle, attempt)
    // makes a second scheduler instance, or a restart, unable to start the same attempt twice;
    // the partial unique index makes a cycle impossible to charge twice successfully or to
    // have two attempts in flight. Command charges (cycle null) are unique by their transaction.
    await runner.query(`
      create table payments.mandate_charges (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        mandate_id text not null references payments.mandates (id),
        kind text not null check (kind in ('cycle', 'command')),
        cycle integer,
        attempt integer not null default 1,
        transaction_id text not null unique references payments.transactions (id),
        status text not null check (status in ('pending', 'succeeded', 'failed')),
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        constraint mandate_charges_cycle check ((kind = 'cycle') = (cycle is not null))
      )`);
    await runner.query(
      `create unique index mandate_charges_attempt on payments.mandate_charges (mandate_id, cycle, attempt) where kind = 'cycle'`,
    );
    await runner.query(
      `create unique index mandate_charges_one_per_cycle on payments.mandate_charges (mandate_id, cycle)
        where kind = 'cycle' and status in ('pending', 'succeeded')`,
    );
    await runner.query(
      `create index mandate_charges_pending on payments.mandate_charges (created_at) where status = 'pending'`,
    );
    // payments.commands.v1: `reference` is unique per account and mode (exactly-once charges).
    await runner.query(`alter table payments.transactions add column reference text`);
    await runner.query(
      `create unique index transactions_reference on payments.transactions (account_id, livemode, reference) where reference is not null`,
    );
    // The hosted invoice card form (/pay/invoices/<token>): each rendered form token is
    // single-use (primary key), and an invoice token pays at most once (the succeeded row).
    await runner.query(`
      create table payments.invoice_payment_submissions (
        form_token_hash text primary key,
        invoice_token_hash text not null,
        transaction_id text,
        succeeded boolean not null default false,
        created_at timestamptz not null default now()
      )`);
    await runner.query(
      `create index invoice_payment_submissions_by_token on payments.invoice_payment_submissions (invoice_token_hash)`,
    );
    await runner.query(
      `create unique index invoice_payment_submissions_paid on payments.invoice_payment_submissions (invoice_token_hash) where succeeded`,
    );
    await runner.query(
      `create index checkout_submissions_created on payments.checkout_submissions (created_at)`,
    );
    await runner.query(
      `create index payment_links_expiring on payments.payment_links (expires_at) where status = 'active' and expires_at is not null`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop index payments.payment_links_expiring');
    await runner.query('drop index payments.checkout_submissions_created');
    await runner.query('drop table payments.invoice_payment_submissions');
    await runner.query('drop index payments.transactions_reference');
    await runner.query('alter table payments.transactions drop column reference');
    await runner.query('drop table payments.mandate_charges');
    await runner.query('drop table payments.mandates');
  }
}
