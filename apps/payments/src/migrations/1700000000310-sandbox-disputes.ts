import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Disputes in the sandbox (docs/api.md §5, test cards): the sandbox's 4000 0000 0000 0259 makes
 * a payment that is disputed at once, through the same DisputesService path a processor webhook
 * takes. The sandbox has no processor connection, so its disputes have none (`connection_id`
 * null) and are unique by their sandbox reference instead; a processor's stay unique per
 * connection (disputes_once).
 */
export class SandboxDisputes1700000000310 implements MigrationInterface {
  name = 'SandboxDisputes1700000000310';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`alter table payments.disputes alter column connection_id drop not null`);
    await runner.query(
      `create unique index disputes_sandbox_once on payments.disputes (processor_reference) where connection_id is null`,
    );
    // Only test mode has no connection: a live dispute always comes from a processor's.
    await runner.query(
      `alter table payments.disputes add constraint disputes_sandbox_test_only check (connection_id is not null or not livemode)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`alter table payments.disputes drop constraint disputes_sandbox_test_only`);
    await runner.query(`drop index payments.disputes_sandbox_once`);
    await runner.query(`alter table payments.disputes alter column connection_id set not null`);
  }
}
