import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment receipts (docs/adr/0012): one per succeeded payment, numbered per account and mode
 * without gaps (the counter row is taken in the same inbox transaction that inserts the
 * receipt, so a rolled-back issue leaves no hole), with the seller as it read when the payment
 * succeeded. `amount_refunded` follows refund.succeeded for the refund notice and the PDF.
 */
export class Receipts1700000000360 implements MigrationInterface {
  name = 'Receipts1700000000360';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table invoicing.receipts (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        number text not null,
        transaction_id text not null,
        email text,
        amount bigint not null,
        amount_refunded bigint not null default 0,
        currency text not null,
        invoice_id text,
        invoice_number text,
        customer_id text,
        payment_method jsonb,
        seller jsonb not null,
        paid_at timestamptz not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (account_id, livemode, transaction_id),
        unique (account_id, livemode, number)
      )`);
    await runner.query(`
      create table invoicing.receipt_number_counters (
        account_id text not null,
        livemode boolean not null,
        last_number bigint not null,
        primary key (account_id, livemode)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table invoicing.receipt_number_counters');
    await runner.query('drop table invoicing.receipts');
  }
}
