import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The language of a receipt (issue 17 item 6, docs/adr/0012): the `preferred_locales` of the
 * customer it was issued for (the paid invoice's customer snapshot, else the customer's), kept
 * with the receipt as its seller is, so the mail, the refund notice and the PDF served later all
 * read in the same language. Empty: English.
 */
export class ReceiptLocales1700000000371 implements MigrationInterface {
  name = 'ReceiptLocales1700000000371';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `alter table invoicing.receipts add column preferred_locales jsonb not null default '[]'::jsonb`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('alter table invoicing.receipts drop column preferred_locales');
  }
}
