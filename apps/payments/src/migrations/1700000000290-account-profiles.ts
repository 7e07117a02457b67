import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The payments service's projection of the accounts' business profiles (docs/adr/0011):
 * what the checkout page shows of the seller, kept from invoicing's account.updated events.
 * `version` is the profile's own; an older event never overwrites a newer row.
 */
export class AccountProfiles1700000000290 implements MigrationInterface {
  name = 'AccountProfiles1700000000290';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table payments.account_profiles (
        account_id text primary key,
        version integer not null,
        name text,
        logo_url text,
        brand_color text,
        support_email text,
        support_phone text,
        website text,
        statement_descriptor text,
        updated_at timestamptz not null
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table payments.account_profiles');
  }
}
