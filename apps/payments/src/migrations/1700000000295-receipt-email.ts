import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where a payment's receipt goes: the address the payer gave on the hosted checkout (the form
 * asked for it "for receipts" and used to drop it). Carried on payment.succeeded, from which
 * invoicing issues the receipt (docs/adr/0012). Nullable, no default: adding it rewrites nothing.
 */
export class ReceiptEmail1700000000295 implements MigrationInterface {
  name = 'ReceiptEmail1700000000295';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('alter table payments.transactions add column receipt_email text');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('alter table payments.transactions drop column receipt_email');
  }
}
