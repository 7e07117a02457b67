// The payments service's own copy of which customer ids exist (issue 12 finding 10): fed from
// invoicing.events.v1 (customers/customer-directory.ts), never read from invoicing's schema.

import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CustomerDirectory1700000000280 implements MigrationInterface {
  name = 'CustomerDirectory1700000000280';

  async up(runner: QueryRunner): Promise<void> {
    // One row per customer id invoicing announced; `archived` once customer.deleted arrived.
    await runner.query(`
      create table payments.customer_directory (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        archived boolean not null default false,
        updated_at timestamptz not null default now()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table payments.customer_directory');
  }
}
