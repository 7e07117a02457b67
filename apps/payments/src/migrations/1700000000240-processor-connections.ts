import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Processor connections (docs/api.md Part 2, processor connections): one account's credentials
 * for one processor in one mode, sealed with AES-256-GCM (secrets_key_id names the key of
 * PROCESSOR_SECRETS_KEYS that sealed them). At most one connection that is not disabled per account and mode:
 * live payments route to it (connectors/connector-router.ts).
 */
export class ProcessorConnections1700000000240 implements MigrationInterface {
  name = 'ProcessorConnections1700000000240';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table payments.processor_connections (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        processor text not null check (processor in ('stripe')),
        status text not null default 'active' check (status in ('active', 'failing', 'disabled')),
        description text,
        secret_key_last4 text not null,
        secrets_key_id text not null,
        secrets_ciphertext text not null,
        processor_account text,
        verification_status text not null default 'unverified'
          check (verification_status in ('unverified', 'succeeded', 'failed')),
        verification_message text,
        verified_at timestamptz,
        disabled_at timestamptz,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    await runner.query(
      `create index processor_connections_list on payments.processor_connections (account_id, livemode, created_at desc, id desc)`,
    );
    await runner.query(
      `create unique index processor_connections_one_active on payments.processor_connections (account_id, livemode) where status <> 'disabled'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table payments.processor_connections');
  }
}
