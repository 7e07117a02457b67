import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When recovery next asks the processor about a refund it holds pending (refunds.sql.ts
 * deferRefundCheck): without it every job run (10 s) asked again about every such refund older
 * than five minutes, for as long as the processor took (days for some card networks).
 * `recovery_checks` counts the asks, so the wait doubles; both are internal, never served.
 */
export class RefundCheckBackoff1700000000380 implements MigrationInterface {
  name = 'RefundCheckBackoff1700000000380';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `alter table payments.refunds
         add column recovery_checks integer not null default 0,
         add column next_check_at timestamptz`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('alter table payments.refunds drop column recovery_checks, drop column next_check_at');
  }
}
