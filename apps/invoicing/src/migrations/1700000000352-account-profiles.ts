import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The account's business profile (docs/adr/0011): one row per account, owned by invoicing.
 * The logo's bytes live here too (at most 512 KiB, served by the public logo route under
 * /i/logos); `version` grows with every change so the projection in payments keeps the newest.
 * The mail queue gains the sender's display name, fixed when the mail is queued.
 */
export class AccountProfiles1700000000352 implements MigrationInterface {
  name = 'AccountProfiles1700000000352';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table invoicing.account_profiles (
        account_id text primary key,
        version integer not null default 0,
        profile jsonb not null default '{}'::jsonb,
        account_name text,
        logo bytea,
        logo_type text check (logo_type in ('image/png', 'image/jpeg')),
        logo_digest text,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        check ((logo is null) = (logo_type is null) and (logo is null) = (logo_digest is null)),
        check (octet_length(logo) <= 524288)
      )`);
    await runner.query(`alter table invoicing.mail_queue add column from_name text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('alter table invoicing.mail_queue drop column from_name');
    await runner.query('drop table invoicing.account_profiles');
  }
}
