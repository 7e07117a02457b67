// The request log (request-log/request-log.ts): each API request the gateway answered for an
// account, kept 24 hours, for GET /v1/request-logs[/stream] and `paygrid logs tail`. No
// query string, body or key is ever stored: only what the log shows.

import type { MigrationInterface, QueryRunner } from 'typeorm';

export class RequestLog1700000000440 implements MigrationInterface {
  name = 'RequestLog1700000000440';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`create table webhooks.request_log (
      seq bigint generated always as identity primary key,
      account_id text not null,
      livemode boolean not null,
      request_id text not null,
      method text not null,
      path text not null,
      status smallint not null,
      duration_ms integer not null,
      created_at timestamptz not null
    )`);
    await runner.query(`create index request_log_tail on webhooks.request_log (account_id, livemode, seq)`);
    await runner.query(`create index request_log_age on webhooks.request_log (created_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table webhooks.request_log');
  }
}
