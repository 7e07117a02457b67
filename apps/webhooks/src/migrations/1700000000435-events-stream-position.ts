// A position in the event log for GET /v1/events/stream (event-stream.ts): the inserting
// transaction's id (xid8) and an identity sequence. Event ids and created_at are the
// emitters' clocks, and rows commit out of their insertion order, so neither can be a cursor
// that never skips a row; (xid, seq) read only below the oldest running transaction can.

import type { MigrationInterface, QueryRunner } from 'typeorm';

export class EventsStreamPosition1700000000435 implements MigrationInterface {
  name = 'EventsStreamPosition1700000000435';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`alter table webhooks.events add column seq bigint generated always as identity`);
    await runner.query(
      `alter table webhooks.events add column xid xid8 not null default pg_current_xact_id()`,
    );
    await runner.query(`create index events_stream on webhooks.events (account_id, livemode, xid, seq)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop index webhooks.events_stream');
    await runner.query('alter table webhooks.events drop column xid, drop column seq');
  }
}
