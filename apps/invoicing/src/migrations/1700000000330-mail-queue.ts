import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The durable mail queue (src/mail): one row per send action, written in the business
 * transaction that decides to send, delivered after commit by the MailWorker.
 */
export class MailQueue1700000000330 implements MigrationInterface {
  name = 'MailQueue1700000000330';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table invoicing.mail_queue (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        send_key text not null,
        message_id text not null,
        to_addresses text[] not null,
        cc_addresses text[] not null default '{}',
        reply_to text,
        subject text not null,
        text_body text not null,
        html_body text,
        attachments jsonb not null default '[]'::jsonb,
        status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
        attempts integer not null default 0,
        next_attempt_at timestamptz not null,
        lease_until timestamptz,
        last_attempt_at timestamptz,
        last_error text,
        transport_response text,
        sent_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    // One send action is queued once, whoever retries it (an idempotent request replayed, a
    // job run twice): the second insert finds the key and does nothing.
    await runner.query(
      `create unique index mail_queue_send_key on invoicing.mail_queue (account_id, livemode, send_key)`,
    );
    await runner.query(
      `create index mail_queue_due on invoicing.mail_queue (next_attempt_at) where status = 'pending'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table invoicing.mail_queue');
  }
}
