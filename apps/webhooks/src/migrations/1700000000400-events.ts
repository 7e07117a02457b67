import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Events1700000000400 implements MigrationInterface {
  name = 'Events1700000000400';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table webhooks.events (
        id text collate "C" primary key,
        account_id text not null,
        livemode boolean not null,
        type text not null,
        payload jsonb not null,
        created_at timestamptz not null,
        received_at timestamptz not null default now()
      )`);
    await runner.query(
      `create index events_list on webhooks.events (account_id, livemode, created_at desc, id desc)`,
    );
    await runner.query(
      `create index events_type on webhooks.events (account_id, livemode, type, created_at desc, id desc)`,
    );
    await runner.query(`create index events_retention on webhooks.events (created_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table webhooks.events');
  }
}
