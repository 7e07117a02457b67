// deliveries_order serves the per-object order: the claim's check for an earlier pending
// delivery of the same endpoint and object, followHead and the event log's, each naming the
// object. Covering every pending row, it was also a way to walk the whole backlog, and on
// statistics that said nothing was pending (a burst after an ANALYZE) the planner walked and
// sorted the backlog through it on every claim instead of reading the next twenty from
// deliveries_claimable (bench/README.md finding 34). Rows without an object never have an
// order to keep, so the index holds only rows with one: no query that names no object uses it.

import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DeliveriesOrderObjects1700000000460 implements MigrationInterface {
  name = 'DeliveriesOrderObjects1700000000460';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('drop index webhooks.deliveries_order');
    await runner.query(
      `create index deliveries_order on webhooks.deliveries (endpoint_id, object_id, seq)
       where status = 'pending' and object_id is not null`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop index webhooks.deliveries_order');
    await runner.query(
      `create index deliveries_order on webhooks.deliveries (endpoint_id, object_id, seq) where status = 'pending'`,
    );
  }
}
