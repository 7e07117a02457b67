// The in-flight count of a checkout claim (card-payments/checkout-form-token.ts) reads the
// link's unfinished submissions of the last two minutes. Without this index it read every
// submission of the last two minutes of every link (checkout_submissions_created) and kept
// the link's: at 1,000,000 submissions an hour, 33,000 rows per claim, with the link row
// locked (tests/plans/payments.test.ts, docs/scaling.md "Costs that stay flat"). The index
// holds only unfinished submissions (a completed one gets its transaction_id in tx2), so it
// stays as small as the charges in flight plus the few left by crashes.
//
// CONCURRENTLY, outside TypeORM's migration transaction (`transaction = false`): a plain
// CREATE INDEX would block every checkout's insert into the table for as long as it takes to
// read a large table at deploy time. CONCURRENTLY cannot run in a transaction; if it fails
// half-way it leaves an INVALID index, which `up` drops before building again, so a retried
// start-up (under Database.migrate's advisory lock) finishes the job.

import type { MigrationInterface, QueryRunner } from 'typeorm';

const INDEX = 'checkout_submissions_in_flight';

export class CheckoutInFlightIndex1700000000270 implements MigrationInterface {
  name = 'CheckoutInFlightIndex1700000000270';
  transaction = false;

  async up(runner: QueryRunner): Promise<void> {
    const [leftover] = await runner.query(
      `select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
         join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'payments' and c.relname = $1`,
      [INDEX],
    );
    if (leftover && !leftover.valid) await runner.query(`drop index concurrently payments.${INDEX}`);
    await runner.query(
      `create index concurrently if not exists ${INDEX}
         on payments.checkout_submissions (payment_link_id, created_at) where transaction_id is null`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`drop index concurrently if exists payments.${INDEX}`);
  }
}
