// A consumer whose effect is NOT idempotent by itself (a counter increment), fed duplicates:
// the inbox must make each message count once. Shared by the Kafka and embedded suites.

import { randomBytes } from 'node:crypto';
import {
  createLogger,
  Database,
  InboxConsumer,
  platformTablesMigration,
  type EventBus,
} from '@paygrid/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { eventually } from './platform';

export async function runInboxScenario(
  databaseUrl: string,
  makeBus: () => EventBus,
): Promise<{ counter: number; inboxRows: number }> {
  const schema = `inbox_${randomBytes(4).toString('hex')}`;
  const Counter = class implements MigrationInterface {
    name = 'Counter1700000000999';
    async up(runner: QueryRunner) {
      await runner.query(`create table ${schema}.counter (id int primary key, n int not null)`);
      await runner.query(`insert into ${schema}.counter values (1, 0)`);
    }
    async down() {}
  };
  const logger = createLogger('test', 'silent');
  const db = await Database.connect({
    url: databaseUrl,
    schema,
    migrations: [platformTablesMigration(schema), Counter],
    poolSize: 4,
  });
  await db.migrate();
  const bus = makeBus();
  await bus.connect();
  try {
    const consumer = new InboxConsumer(db, bus, logger);
    await consumer.subscribe(`${schema}.counter`, ['test.events.v1'], async (_event, tx) => {
      await tx.query(`update ${schema}.counter set n = n + 1 where id = 1`);
    });
    const envelope = (id: string) =>
      JSON.stringify({ id, type: 'thing.happened', account: 'acct_x', livemode: false });
    // The same event three times (redelivery), then a second event twice.
    await bus.publish('test.events.v1', [
      { key: 'acct_x', value: envelope('evt_one') },
      { key: 'acct_x', value: envelope('evt_one') },
    ]);
    await bus.publish('test.events.v1', [{ key: 'acct_x', value: envelope('evt_one') }]);
    await bus.publish('test.events.v1', [
      { key: 'acct_x', value: envelope('evt_two') },
      { key: 'acct_x', value: envelope('evt_two') },
    ]);
    await eventually(async () => {
      const [row] = await db.query<{ n: number }>(`select n from ${schema}.counter`);
      return row.n >= 2 ? true : undefined;
    }, 30_000);
    // Leave time for the remaining duplicates to be consumed (and ignored).
    await new Promise((r) => setTimeout(r, 1_500));
    const [{ n }] = await db.query<{ n: number }>(`select n from ${schema}.counter`);
    const [{ count }] = await db.query<{ count: string }>(`select count(*) from ${schema}.inbox`);
    return { counter: n, inboxRows: Number(count) };
  } finally {
    await bus.close();
    await db.query(`drop schema ${schema} cascade`);
    await db.close();
  }
}
