import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Subscriptions1700000000340 implements MigrationInterface {
  name = 'Subscriptions1700000000340';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      create table invoicing.test_clocks (
        id text primary key,
        account_id text not null,
        livemode boolean not null check (livemode = false),
        name text,
        frozen_time timestamptz not null,
        status text not null check (status in ('ready', 'advancing')),
        advancing_to timestamptz,
        deleted_at timestamptz,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    await runner.query(
      `create index test_clocks_list on invoicing.test_clocks (account_id, livemode, created_at desc, id desc)`,
    );

    // Items live in the row (jsonb): every item shares the subscription's currency and cycle,
    // and they are always read and replaced together.
    await runner.query(`
      create table invoicing.subscriptions (
        id text primary key,
        account_id text not null,
        livemode boolean not null,
        customer_id text not null references invoicing.customers (id),
        test_clock text references invoicing.test_clocks (id),
        status text not null check (status in ('trialing', 'active', 'incomplete', 'incomplete_expired',
          'past_due', 'unpaid', 'canceled', 'paused')),
        currency text not null,
        interval text not null check (interval in ('day', 'week', 'month', 'year')),
        interval_count integer not null check (interval_count between 1 and 365),
        items jsonb not null,
        time_zone text not null,
        billing_cycle_anchor timestamptz not null,
        start_date timestamptz not null,
        bill_from timestamptz not null,
        trial_start timestamptz,
        trial_end timestamptz,
        trial_will_end_sent boolean not null default false,
        collection_method text not null check (collection_method in ('send_invoice', 'charge_automatically')),
        days_until_due integer,
        dunning_end_state text not null check (dunning_end_state in ('unpaid', 'canceled')),
        next_period_index integer not null,
        current_period_index integer,
        current_period_start timestamptz,
        current_period_end timestamptz,
        next_action_at timestamptz,
        latest_invoice text,
        pending_credit bigint not null default 0 check (pending_credit >= 0),
        cancel_at_period_end boolean not null default false,
        canceled_at timestamptz,
        ended_at timestamptz,
        paused_at timestamptz,
        metadata jsonb not null default '{}'::jsonb,
        created_at timestamptz not null,
        updated_at timestamptz not null
      )`);
    await runner.query(
      `create index subscriptions_list on invoicing.subscriptions (account_id, livemode, created_at desc, id desc)`,
    );
    await runner.query(
      `create index subscriptions_customer on invoicing.subscriptions (account_id, livemode, customer_id)`,
    );
    // The engine's claims: real time reads the first, each test clock the second.
    await runner.query(
      `create index subscriptions_due on invoicing.subscriptions (next_action_at)
        where next_action_at is not null and test_clock is null`,
    );
    await runner.query(
      `create index subscriptions_clock_due on invoicing.subscriptions (test_clock, next_action_at)
        where next_action_at is not null and test_clock is not null`,
    );

    // The billing ledger: one row per period of a subscription, whatever happened to it
    // (invoiced, or passed while paused). The primary key is the guarantee that no period is
    // ever billed twice: two engines that both claim a period cannot both insert its row.
    await runner.query(`
      create table invoicing.subscription_periods (
        subscription_id text not null references invoicing.subscriptions (id),
        period_index integer not null,
        account_id text not null,
        livemode boolean not null,
        test_clock text,
        period_start timestamptz not null,
        period_end timestamptz not null,
        billed_from timestamptz not null,
        outcome text not null check (outcome in ('invoiced', 'paused', 'empty')),
        invoice_id text,
        amount bigint not null check (amount >= 0),
        payment_status text check (payment_status in ('pending', 'paid', 'failed', 'exhausted', 'uncollected')),
        attempts integer not null default 0,
        first_attempt_at timestamptz,
        next_retry_at timestamptz,
        awaiting_outcome boolean not null default false,
        created_at timestamptz not null,
        primary key (subscription_id, period_index)
      )`);
    await runner.query(
      `create unique index subscription_periods_invoice on invoicing.subscription_periods (invoice_id)
        where invoice_id is not null`,
    );
    await runner.query(
      `create index subscription_periods_retry on invoicing.subscription_periods (subscription_id, next_retry_at)
        where next_retry_at is not null`,
    );
    await runner.query(
      `create index subscription_periods_awaiting on invoicing.subscription_periods (test_clock)
        where awaiting_outcome`,
    );

    // Proration lines waiting for the next invoice (create_prorations), or already invoiced.
    await runner.query(`
      create table invoicing.subscription_prorations (
        id text primary key,
        subscription_id text not null references invoicing.subscriptions (id),
        description text not null,
        amount bigint not null,
        period_start timestamptz not null,
        period_end timestamptz not null,
        invoice_id text,
        created_at timestamptz not null
      )`);
    await runner.query(
      `create index subscription_prorations_pending on invoicing.subscription_prorations (subscription_id)
        where invoice_id is null`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('drop table invoicing.subscription_prorations');
    await runner.query('drop table invoicing.subscription_periods');
    await runner.query('drop table invoicing.subscriptions');
    await runner.query('drop table invoicing.test_clocks');
  }
}
