import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Invoices1700000000320 implements MigrationInterface {
  name = 'Invoices1700000000320';

  async up(runner: QueryRunner): Promise<void> {
    // Lines live in the invoice row (jsonb, at most 250): they are always read and written with
    // it, and a finalized invoice never changes them. Amounts stay exact: the line amounts are
    // JSON integers <= 99,999,999,999 and every total is a bigint column.
    await runner.query(`
      create table invoicing.invoices (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        customer_id text not null references invoicing.customers (id),
        status text not null check (status in ('draft', 'open', 'paid', 'void', 'uncollectible')),
        number text,
        currency text not null,
        collection_method text not null check (collection_method in ('send_invoice', 'charge_automatically')),
        days_until_due integer,
        due_date timestamptz,
        description text,
        lines jsonb not null,
        discount jsonb,
        subtotal bigint not null check (subtotal >= 0),
        discount_total bigint not null check (discount_total >= 0 and discount_total <= subtotal),
        tax_total bigint not null check (tax_total >= 0),
        total bigint not null check (total = subtotal - discount_total + tax_total),
        amount_paid bigint not null default 0 check (amount_paid >= 0),
        amount_due bigint not null check (amount_due >= 0),
        subscription_id text,
        period_start timestamptz,
        period_end timestamptz,
        estimate_id text,
        test_clock text,
        seller_name text,
        seller jsonb,
        customer_snapshot jsonb,
        page_token text not null unique,
        attempt_count integer not null default 0,
        send_count integer not null default 0,
        last_payment jsonb,
        paid_out_of_band boolean not null default false,
        finalized_at timestamptz,
        sent_at timestamptz,
        paid_at timestamptz,
        voided_at timestamptz,
        marked_uncollectible_at timestamptz,
        overdue_at timestamptz,
        metadata jsonb not null default '{}'::jsonb,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    await runner.query(
      `create index invoices_list on invoicing.invoices (account_id, livemode, created_at desc, id desc)`,
    );
    await runner.query(
      `create index invoices_customer on invoicing.invoices (account_id, livemode, customer_id, created_at desc)`,
    );
    await runner.query(
      `create index invoices_subscription on invoicing.invoices (subscription_id) where subscription_id is not null`,
    );
    // The overdue sweep reads only open invoices with a due date.
    await runner.query(
      `create index invoices_due on invoicing.invoices (due_date) where status = 'open' and overdue_at is null`,
    );
    await runner.query(
      `create unique index invoices_number on invoicing.invoices (account_id, livemode, number) where number is not null`,
    );
    // One row per account and mode: the last number handed out. Finalize increments it in its
    // own transaction (the row lock serialises concurrent finalizations; a rollback gives the
    // number back), so numbers have no gap and no duplicate.
    await runner.query(`
      create table invoicing.invoice_number_counters (
        account_id text not null,
        livemode boolean not null,
        last_number bigint not null,
        primary key (account_id, livemode)
      )`);

    // Each payment credited to an invoice, once: a second payment.succeeded for the same
    // transaction (or a replayed one) finds its row and credits nothing.
    await runner.query(`
      create table invoicing.invoice_payments (
        transaction_id text primary key,
        invoice_id text not null references invoicing.invoices (id),
        amount bigint not null,
        currency text not null,
        reference text,
        paid_at timestamptz not null
      )`);
    await runner.query(`create index invoice_payments_invoice on invoicing.invoice_payments (invoice_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table invoicing.invoice_payments');
    await runner.query('drop table invoicing.invoice_number_counters');
    await runner.query('drop table invoicing.invoices');
  }
}
