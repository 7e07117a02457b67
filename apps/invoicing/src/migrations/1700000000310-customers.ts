import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Customers1700000000310 implements MigrationInterface {
  name = 'Customers1700000000310';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table invoicing.customers (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        name text,
        email text,
        phone text,
        address jsonb,
        tax_id text,
        currency text,
        external_id text,
        default_mandate text,
        test_clock text,
        metadata jsonb not null default '{}'::jsonb,
        deleted_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    await runner.query(
      `create index customers_list on invoicing.customers (account_id, livemode, created_at desc, id desc)`,
    );
    await runner.query(
      `create index customers_email on invoicing.customers (account_id, livemode, email) where email is not null`,
    );
    // external_id is unique among the account's live (not archived) customers of one mode.
    await runner.query(
      `create unique index customers_external_id on invoicing.customers (account_id, livemode, external_id)
       where external_id is not null and deleted_at is null`,
    );
    // A refund event names the payment it refunds, not the customer: keep the payment id so
    // a customer's billing history can include the refunds of its payments.
    await runner.query(`alter table invoicing.payment_facts add column payment_id text`);
    await runner.query(
      `create index payment_facts_payment on invoicing.payment_facts (payment_id) where payment_id is not null`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('alter table invoicing.payment_facts drop column payment_id');
    await runner.query('drop table invoicing.customers');
  }
}
