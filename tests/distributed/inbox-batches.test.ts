// A Kafka fetch of many messages is handled in batches, one transaction per batch
// (Subscription.batchHandler, InboxConsumer): through real Kafka and PostgreSQL, every message
// has its effect once and in order, a batch shares its transaction and one inbox statement,
// and a message that fails is rolled back alone (a savepoint, and its inbox row deleted): the
// messages before it commit, it is retried in place in a transaction of its own, and batching
// resumes after it. Then the lots' scenarios (tests/support/inbox-lots.ts) on PostgreSQL, as
// the embedded suite runs them on PGlite.

import { randomBytes } from 'node:crypto';
import {
  createLogger,
  Database,
  InboxConsumer,
  KafkaBus,
  MAX_BATCH_MESSAGES,
  platformTablesMigration,
} from '@paygrid/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { LOT_SCENARIOS, lotHarness } from '../support/inbox-lots';
import { eventually } from '../support/platform';
import { onStatement } from '../support/statements';

const MESSAGES = 60;
/** Fails its first two handlings: in a batch, then alone (retried in place). */
const FAILING = 30;

it('handles a backlog in shared transactions, in order, each message once, and retries a failing one alone', async () => {
  const schema = `inbox_batches_${randomBytes(4).toString('hex')}`;
  const Effects = class implements MigrationInterface {
    name = 'Effects1700000000998';
    async up(runner: QueryRunner) {
      await runner.query(
        `create table ${schema}.effects (seq bigserial primary key, n int not null, txid bigint not null)`,
      );
    }
    async down() {}
  };
  const db = await Database.connect({
    url: process.env.DATABASE_URL as string,
    schema,
    migrations: [platformTablesMigration(schema), Effects],
    poolSize: 4,
  });
  await db.migrate();
  // Inbox statements and transactions the consumer sends (its pool's connections).
  const sent = { inbox: 0, begins: 0 };
  onStatement(db.pool, ({ text }) => {
    sent.inbox += (text.match(/insert into \w+\.inbox\b/g) ?? []).length;
    if (/^\s*begin\b/i.test(text)) sent.begins++;
  });
  const bus = new KafkaBus({
    brokers: (process.env.KAFKA_BROKERS as string).split(','),
    clientId: 'inbox-batches-test',
    partitions: 1,
    topicPrefix: `t${randomBytes(4).toString('hex')}.`,
    topics: ['test.events.v1'],
    logger: createLogger('test', 'silent'),
  });
  await bus.connect();
  try {
    // The backlog is there before the consumer joins, so its first fetches return many.
    await bus.publish(
      'test.events.v1',
      Array.from({ length: MESSAGES }, (_, i) => ({
        key: 'acct_x',
        value: JSON.stringify({
          id: `evt_${i}`,
          type: 'thing.happened',
          account: 'acct_x',
          livemode: false,
          n: i,
        }),
      })),
    );
    let failures = 0;
    const consumer = new InboxConsumer(db, bus, createLogger('test', 'silent'));
    await consumer.subscribe<{ id: string; type: string; account: string; livemode: boolean; n: number }>(
      `${schema}.effects`,
      ['test.events.v1'],
      async (event, tx) => {
        await tx.query(`insert into ${schema}.effects (n, txid) values ($1, txid_current())`, [event.n]);
        if (event.n === FAILING && failures < 2) {
          failures++;
          throw new Error('the failing message fails');
        }
      },
    );
    const rows = await eventually(async () => {
      const found = await db.query<{ n: number; txid: string }>(
        `select n, txid from ${schema}.effects order by seq`,
      );
      return found.length >= MESSAGES ? found : undefined;
    }, 60_000);
    // Redeliveries, had there been any, would come within the next moments.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const after = await db.query<{ n: number }>(`select n from ${schema}.effects order by seq`);
    expect(after.map((r) => r.n)).toEqual(Array.from({ length: MESSAGES }, (_, i) => i));
    expect(failures).toBe(2);
    // Batches: at most MAX_BATCH_MESSAGES messages per transaction, and far fewer
    // transactions than messages; the failing message committed in one of its own.
    const perTransaction = new Map<string, number>();
    for (const { txid } of rows) perTransaction.set(txid, (perTransaction.get(txid) ?? 0) + 1);
    expect(perTransaction.size).toBeLessThanOrEqual(8);
    expect(Math.max(...perTransaction.values())).toBeLessThanOrEqual(MAX_BATCH_MESSAGES);
    expect(perTransaction.get(rows[FAILING].txid)).toBe(1);
    expect(rows[FAILING - 1].txid).not.toBe(rows[FAILING + 1].txid);
    const [{ count }] = await db.query<{ count: string }>(`select count(*) from ${schema}.inbox`);
    expect(Number(count)).toBe(MESSAGES);
    // One inbox statement per transaction (a lot, or a message alone), not one per message:
    // before, 60 messages sent 62 (each message's, and the failing one's two retries).
    expect(sent.inbox).toBe(sent.begins);
    expect(sent.inbox).toBeLessThanOrEqual(perTransaction.size + 2);
  } finally {
    await bus.close();
    await db.query(`drop schema ${schema} cascade`);
    await db.close();
  }
});

describe('lots on PostgreSQL', () => {
  it.each(Object.keys(LOT_SCENARIOS))('%s', async (name) => {
    const scenario = LOT_SCENARIOS[name];
    const harness = await lotHarness(process.env.DATABASE_URL as string, scenario.plans);
    try {
      expect(await scenario.run(harness)).toEqual(scenario.expected);
    } finally {
      await harness.close();
    }
  });
});
