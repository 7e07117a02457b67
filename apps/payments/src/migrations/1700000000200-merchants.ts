import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Merchants1700000000200 implements MigrationInterface {
  name = 'Merchants1700000000200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table payments.merchants (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        is_default boolean not null default false,
        business_name text,
        email text,
        country text,
        default_currency text,
        business_type text,
        website text,
        onboarding_status text not null default 'pending'
          check (onboarding_status in ('pending', 'in_review', 'active', 'rejected', 'restricted')),
        submitted_at timestamptz,
        decided_at timestamptz,
        decision_reason text,
        metadata jsonb not null default '{}',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    await runner.query(
      `create index merchants_list on payments.merchants (account_id, livemode, created_at desc, id desc)`,
    );
    await runner.query(
      `create unique index merchants_one_default on payments.merchants (account_id, livemode) where is_default`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table payments.merchants');
  }
}
