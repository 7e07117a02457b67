import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The customer portal (docs/adr/0013): the customer's languages; the cards of its mandates as
 * the payments service's events describe them (a projection: invoicing never reads payments'
 * tables), for the portal's "saved cards"; and the portal forms' used CSRF tokens (each form
 * token acts at most once, recorded in the transaction of its change).
 */
export class CustomerPortal1700000000367 implements MigrationInterface {
  name = 'CustomerPortal1700000000367';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `alter table invoicing.customers add column preferred_locales jsonb not null default '[]'::jsonb`,
    );
    await runner.query(`
      create table invoicing.customer_cards (
        mandate_id text primary key,
        account_id text not null,
        livemode boolean not null,
        customer_id text not null,
        status text not null,
        brand text not null,
        last4 text not null,
        exp_month integer not null,
        exp_year integer not null,
        recurring boolean not null,
        updated_at timestamptz not null
      )`);
    await runner.query(
      `create index customer_cards_customer on invoicing.customer_cards (account_id, livemode, customer_id)`,
    );
    await runner.query(`
      create table invoicing.portal_form_tokens (
        token_hash text primary key,
        customer_id text not null,
        used_at timestamptz not null
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`drop table invoicing.portal_form_tokens`);
    await runner.query(`drop table invoicing.customer_cards`);
    await runner.query(`alter table invoicing.customers drop column preferred_locales`);
  }
}
