// The platform tables every service schema has (outbox, inbox, idempotency keys), as
// migrations each service lists with its own (moved out of database.ts, which is the port).

import type { MigrationInterface } from 'typeorm';

/** Idempotency keys (docs/api.md §4), recorded in the transaction of the write they guard. */
export function idempotencyMigration(
  schema: string,
  timestamp = 1700000000001,
): new () => MigrationInterface {
  const name = `IdempotencyKeys${timestamp}`;
  const migration = class implements MigrationInterface {
    name = name;
    async up(runner: import('typeorm').QueryRunner): Promise<void> {
      await runner.query(`
        create table ${schema}.idempotency_keys (
          account_id text not null,
          livemode boolean not null,
          key text not null,
          request_hash text not null,
          method text not null,
          path text not null,
          response_status integer not null,
          response_body jsonb not null,
          created_at timestamptz not null default now(),
          primary key (account_id, livemode, key)
        )`);
      await runner.query(`create index idempotency_keys_created on ${schema}.idempotency_keys (created_at)`);
    }
    async down(runner: import('typeorm').QueryRunner): Promise<void> {
      await runner.query(`drop table ${schema}.idempotency_keys`);
    }
  };
  Object.defineProperty(migration, 'name', { value: name });
  return migration;
}

/**
 * The outbox's trace_context: the W3C traceparent of the span that wrote the row (null when
 * tracing is off), so the relay's publish and the consumers continue the request's trace.
 */
export function outboxTraceContextMigration(schema: string, timestamp: number): new () => MigrationInterface {
  const name = `OutboxTraceContext${timestamp}`;
  const migration = class implements MigrationInterface {
    name = name;
    async up(runner: import('typeorm').QueryRunner): Promise<void> {
      await runner.query(`alter table ${schema}.outbox add column trace_context text`);
    }
    async down(runner: import('typeorm').QueryRunner): Promise<void> {
      await runner.query(`alter table ${schema}.outbox drop column trace_context`);
    }
  };
  Object.defineProperty(migration, 'name', { value: name });
  return migration;
}

/**
 * The tables every service schema has: the outbox (events waiting to be published) and the
 * inbox (ids of messages this service's consumers have handled).
 */
export function platformTablesMigration(
  schema: string,
  timestamp = 1700000000000,
): new () => MigrationInterface {
  const name = `PlatformTables${timestamp}`;
  const migration = class implements MigrationInterface {
    name = name;
    async up(runner: import('typeorm').QueryRunner): Promise<void> {
      await runner.query(`
        create table ${schema}.outbox (
          id bigserial primary key,
          topic text not null,
          key text not null,
          message_id text not null,
          payload jsonb not null,
          created_at timestamptz not null default now(),
          published_at timestamptz
        )`);
      await runner.query(
        `create index outbox_unpublished on ${schema}.outbox (id) where published_at is null`,
      );
      await runner.query(
        `create index outbox_published_at on ${schema}.outbox (published_at) where published_at is not null`,
      );
      await runner.query(`
        create table ${schema}.inbox (
          consumer text not null,
          message_id text not null,
          handled_at timestamptz not null default now(),
          primary key (consumer, message_id)
        )`);
      await runner.query(`create index inbox_handled_at on ${schema}.inbox (handled_at)`);
    }
    async down(runner: import('typeorm').QueryRunner): Promise<void> {
      await runner.query(`drop table ${schema}.inbox`);
      await runner.query(`drop table ${schema}.outbox`);
    }
  };
  Object.defineProperty(migration, 'name', { value: name });
  return migration;
}
