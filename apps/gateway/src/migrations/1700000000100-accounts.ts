import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Accounts1700000000100 implements MigrationInterface {
  name = 'Accounts1700000000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table gateway.accounts (
        id text primary key,
        name text not null,
        groupings text[] not null check (cardinality(groupings) > 0 and groupings <@ array['payments','invoicing']),
        status text not null default 'active' check (status in ('active', 'suspended')),
        rate_limit_per_second integer check (rate_limit_per_second > 0),
        metadata jsonb not null default '{}',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    await runner.query(`create index accounts_created on gateway.accounts (created_at desc, id desc)`);
    await runner.query(`
      create table gateway.api_keys (
        id text primary key,
        account_id text not null references gateway.accounts (id),
        livemode boolean not null,
        kind text not null check (kind in ('secret', 'restricted')),
        scopes text[] not null default '{}',
        secret_hash bytea not null unique,
        prefix text not null,
        last4 text not null,
        name text,
        expires_at timestamptz,
        revoked_at timestamptz,
        last_used_at timestamptz,
        rolled_to text,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    await runner.query(
      `create index api_keys_account on gateway.api_keys (account_id, created_at desc, id desc)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table gateway.api_keys');
    await runner.query('drop table gateway.accounts');
  }
}
