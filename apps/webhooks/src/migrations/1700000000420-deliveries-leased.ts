// The delivery claim counts each endpoint's leased (in-flight) deliveries. Without an index
// it counted them per candidate row over all the endpoint's pending deliveries, which made a
// claim quadratic in the backlog (bench/README.md, webhooks findings): 4,000 queued
// deliveries over 20 endpoints drained at 6 deliveries/s. Leased rows are the few in flight.

import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DeliveriesLeased1700000000420 implements MigrationInterface {
  name = 'DeliveriesLeased1700000000420';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `create index deliveries_leased on webhooks.deliveries (lease_until, endpoint_id)
       where status = 'pending' and lease_until is not null`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop index webhooks.deliveries_leased');
  }
}
