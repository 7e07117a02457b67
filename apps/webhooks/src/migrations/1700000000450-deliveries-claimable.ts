// The delivery claim walks the due deliveries that no instance holds, in order. Through
// deliveries_due (every pending row, by time) it read past the rows in flight, which come
// first, and sorted the whole backlog to find the next twenty: about 6.6 ms of PostgreSQL per
// claim with 4,000 queued (bench/README.md finding 20). Rows leave this index when claimed
// and come back when their lease is ended (recorded failure, or released after it ran out).

import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DeliveriesClaimable1700000000450 implements MigrationInterface {
  name = 'DeliveriesClaimable1700000000450';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `create index deliveries_claimable on webhooks.deliveries (next_attempt_at, seq)
       where status = 'pending' and lease_until is null`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop index webhooks.deliveries_claimable');
  }
}
