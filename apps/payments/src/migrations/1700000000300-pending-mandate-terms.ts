import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A card-keeping payment may wait on 3-D Secure (docs/api.md Part 2, 3-D Secure): the first
 * charge of a recurring link, or an invoice paid with "save this card". Its mandate is created
 * only when the payment succeeds, which may be after its own request (the payer's return, a
 * processor webhook, recovery); `mandate_terms` keeps what that mandate will be (the payer,
 * the link or customer, the schedule) until then. Null for every other payment. Card data is
 * never in it: the card's summary is the transaction's own `payment_method`.
 */
export class PendingMandateTerms1700000000300 implements MigrationInterface {
  name = 'PendingMandateTerms1700000000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`alter table payments.transactions add column mandate_terms jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`alter table payments.transactions drop column mandate_terms`);
  }
}
