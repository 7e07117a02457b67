import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * 3-D Secure (docs/api.md §5, transaction statuses): a payment may wait in `requires_action`
 * while the payer authenticates at the processor; `authentication_url` is where they were
 * sent (a double-clicked form sends them there again). The partial index serves recovery and
 * the sandbox's challenge page, which look these few rows up. payments.sandbox_challenges holds
 * the payer's decision on the sandbox's own challenge page (connectors/sandbox-challenges.ts).
 */
export class RequiresAction1700000000255 implements MigrationInterface {
  name = 'RequiresAction1700000000255';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`alter table payments.transactions drop constraint transactions_status_check`);
    await runner.query(`alter table payments.transactions add constraint transactions_status_check
      check (status in ('pending', 'requires_action', 'succeeded', 'failed'))`);
    await runner.query(`alter table payments.transactions add column authentication_url text`);
    await runner.query(
      `create index transactions_requires_action on payments.transactions (processor_reference)
        where status = 'requires_action'`,
    );
    await runner.query(`
      create table payments.sandbox_challenges (
        reference text primary key,
        decision text not null check (decision in ('approved', 'failed')),
        decided_at timestamptz not null
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`drop table payments.sandbox_challenges`);
    await runner.query(`drop index payments.transactions_requires_action`);
    await runner.query(`alter table payments.transactions drop column authentication_url`);
    await runner.query(`alter table payments.transactions drop constraint transactions_status_check`);
    await runner.query(`alter table payments.transactions add constraint transactions_status_check
      check (status in ('pending', 'succeeded', 'failed'))`);
  }
}
