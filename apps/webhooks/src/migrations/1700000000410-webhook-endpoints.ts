import type { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookEndpoints1700000000410 implements MigrationInterface {
  name = 'WebhookEndpoints1700000000410';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table webhooks.endpoints (
        id text collate "C" primary key,
        account_id text not null,
        livemode boolean not null,
        url text not null,
        description text,
        enabled_events text[] not null,
        status text not null default 'enabled' check (status in ('enabled', 'disabled')),
        disabled_reason text,
        secret text not null,
        previous_secret text,
        previous_secret_expires_at timestamptz,
        metadata jsonb not null default '{}'::jsonb,
        failing_since timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    await runner.query(
      `create index endpoints_list on webhooks.endpoints (account_id, livemode, created_at desc, id desc)`,
    );
    await runner.query(`
      create table webhooks.deliveries (
        id text collate "C" primary key,
        endpoint_id text not null references webhooks.endpoints (id) on delete cascade,
        event_id text not null,
        event_type text not null,
        object_id text,
        payload jsonb,
        account_id text not null,
        livemode boolean not null,
        status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
        attempts int not null default 0,
        next_attempt_at timestamptz,
        last_attempt_at timestamptz,
        lease_until timestamptz,
        seq bigserial,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        unique (endpoint_id, event_id)
      )`);
    await runner.query(
      `create index deliveries_due on webhooks.deliveries (next_attempt_at) where status = 'pending'`,
    );
    await runner.query(
      `create index deliveries_order on webhooks.deliveries (endpoint_id, object_id, seq) where status = 'pending'`,
    );
    await runner.query(
      `create index deliveries_list on webhooks.deliveries (endpoint_id, created_at desc, id desc)`,
    );
    await runner.query(`
      create table webhooks.delivery_attempts (
        id bigserial primary key,
        delivery_id text not null references webhooks.deliveries (id) on delete cascade,
        attempted_at timestamptz not null,
        status_code int,
        latency_ms int not null,
        response_excerpt text,
        error text
      )`);
    await runner.query(`create index delivery_attempts_of on webhooks.delivery_attempts (delivery_id, id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table webhooks.delivery_attempts');
    await runner.query('drop table webhooks.deliveries');
    await runner.query('drop table webhooks.endpoints');
  }
}
