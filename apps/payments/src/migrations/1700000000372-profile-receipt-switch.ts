import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The business profile's `receipts.payments` switch in the payments projection (docs/adr/0012):
 * the checkout's success page says where the receipt went only when one is sent. Null (a row
 * projected before the switch was kept) reads as the profile's default, on.
 */
export class ProfileReceiptSwitch1700000000372 implements MigrationInterface {
  name = 'ProfileReceiptSwitch1700000000372';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('alter table payments.account_profiles add column receipts_payments boolean');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('alter table payments.account_profiles drop column receipts_payments');
  }
}
