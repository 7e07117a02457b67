// Trace context (docs/observability.md, traces): the W3C traceparent of the span that wrote
// an outbox row or queued a delivery, null when tracing is off. The relay continues the
// trace onto Kafka; the delivery worker continues it into the POST to the endpoint, which
// happens later and in another transaction, so the delivery row must carry it.

import type { MigrationInterface, QueryRunner } from 'typeorm';

export class TraceContext1700000000430 implements MigrationInterface {
  name = 'TraceContext1700000000430';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('alter table webhooks.outbox add column trace_context text');
    await runner.query('alter table webhooks.deliveries add column trace_context text');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('alter table webhooks.deliveries drop column trace_context');
    await runner.query('alter table webhooks.outbox drop column trace_context');
  }
}
