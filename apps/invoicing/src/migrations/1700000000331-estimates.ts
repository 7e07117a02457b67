import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Estimates and quotes (src/estimates), their gapless numbers, and the quote page's used form tokens. */
export class Estimates1700000000331 implements MigrationInterface {
  name = 'Estimates1700000000331';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table invoicing.estimates (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        kind text not null check (kind in ('estimate', 'quote')),
        customer_id text not null,
        status text not null check (status in ('draft', 'sent', 'accepted', 'declined', 'expired', 'canceled', 'invoiced')),
        number text,
        currency text not null,
        description text,
        lines jsonb not null default '[]'::jsonb,
        discount jsonb,
        subtotal bigint not null default 0,
        discount_total bigint not null default 0,
        tax_total bigint not null default 0,
        total bigint not null default 0,
        expires_at timestamptz,
        page_token text not null,
        seller_name text,
        customer_snapshot jsonb,
        invoice_id text,
        send_count integer not null default 0,
        sent_at timestamptz,
        accepted_at timestamptz,
        declined_at timestamptz,
        expired_at timestamptz,
        canceled_at timestamptz,
        invoiced_at timestamptz,
        decided_via text,
        metadata jsonb not null default '{}'::jsonb,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    await runner.query(
      `create index estimates_list on invoicing.estimates (account_id, livemode, created_at desc, id desc)`,
    );
    await runner.query(
      `create index estimates_customer on invoicing.estimates (account_id, livemode, customer_id, created_at desc)`,
    );
    await runner.query(`create unique index estimates_page_token on invoicing.estimates (page_token)`);
    await runner.query(
      `create unique index estimates_number on invoicing.estimates (account_id, livemode, kind, number)
       where number is not null`,
    );
    // The expiry job reads only sent estimates with an expiry.
    await runner.query(
      `create index estimates_expiry on invoicing.estimates (expires_at) where status = 'sent' and expires_at is not null`,
    );
    // One counter row per account, mode and kind, locked by the send that takes a number: the
    // numbers are gapless (a rolled-back send returns its number) and never duplicated.
    await runner.query(`
      create table invoicing.estimate_number_counters (
        account_id text not null,
        livemode boolean not null,
        kind text not null,
        last_number bigint not null,
        primary key (account_id, livemode, kind)
      )`);
    // Quote page form tokens already used (their hash): a double click or a replayed form
    // answers with the first decision instead of deciding twice.
    await runner.query(`
      create table invoicing.quote_page_submissions (
        token_hash text primary key,
        estimate_id text not null,
        action text not null,
        created_at timestamptz not null
      )`);
    await runner.query(
      `create index quote_page_submissions_created on invoicing.quote_page_submissions (created_at)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table invoicing.quote_page_submissions');
    await runner.query('drop table invoicing.estimate_number_counters');
    await runner.query('drop table invoicing.estimates');
  }
}
