// paygrid_inbox_retries_total (docs/observability.md): a handler that fails is retried by the
// bus (the message is never skipped), and every failed handling is counted for its service
// and consumer. Checked on the embedded bus with a handler failing twice, then succeeding.

import { randomBytes } from 'node:crypto';
import {
  createLogger,
  Database,
  EmbeddedBus,
  InboxConsumer,
  Metrics,
  platformTablesMigration,
  startEmbeddedDatabase,
} from '@paygrid/platform';
import { eventually } from '../support/platform';

it('counts each failed handling of a message, which is then retried until it succeeds', async () => {
  const database = await startEmbeddedDatabase('memory://');
  const logger = createLogger('test', 'silent');
  const schema = `retries_${randomBytes(4).toString('hex')}`;
  const db = await Database.connect({
    url: database.url,
    schema,
    migrations: [platformTablesMigration(schema)],
    poolSize: 4,
  });
  const bus = new EmbeddedBus(database.url, logger);
  try {
    await db.migrate();
    await bus.connect();
    const metrics = new Metrics();
    const retries = metrics.counter('paygrid_inbox_retries_total', 'retries', ['service', 'consumer']);
    const consumer = new InboxConsumer(db, bus, logger, { retries, service: 'invoicing' });
    let failures = 2;
    const handled: string[] = [];
    await consumer.subscribe('invoicing.flaky', ['test.events.v1'], async (event) => {
      if (failures > 0) {
        failures--;
        throw new Error('a dependency is down');
      }
      handled.push(event.id);
    });
    const read = async () =>
      (await retries.get()).values.find((v) => v.labels.consumer === 'invoicing.flaky')?.value;
    expect(await read()).toBe(0); // the series exists before the first failure
    await bus.publish('test.events.v1', [
      {
        key: 'acct_x',
        value: JSON.stringify({ id: 'evt_1', type: 't', account: 'acct_x', livemode: false }),
      },
    ]);
    await eventually(async () => (handled.length ? true : undefined), 30_000);
    expect(handled).toEqual(['evt_1']);
    expect(await read()).toBe(2);
    expect(await metrics.render().then((r) => r.body)).toContain(
      'paygrid_inbox_retries_total{service="invoicing",consumer="invoicing.flaky"} 2',
    );
  } finally {
    await bus.close();
    await db.close();
    await database.close();
  }
});
