import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PaymentFacts1700000000300 implements MigrationInterface {
  name = 'PaymentFacts1700000000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table invoicing.payment_facts (
        event_id text primary key,
        account_id text not null,
        livemode boolean not null,
        type text not null,
        object_id text not null,
        invoice_id text,
        customer_id text,
        amount bigint,
        currency text,
        occurred_at timestamptz not null,
        recorded_at timestamptz not null default now()
      )`);
    await runner.query(
      `create index payment_facts_customer on invoicing.payment_facts (account_id, livemode, customer_id, occurred_at)`,
    );
    await runner.query(
      `create index payment_facts_invoice on invoicing.payment_facts (invoice_id) where invoice_id is not null`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table invoicing.payment_facts');
  }
}
