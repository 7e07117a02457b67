// The lots of InboxConsumer's batch handler on the embedded database (PGlite): the scenarios of
// tests/support/inbox-lots.ts, with the same expectations as on PostgreSQL
// (tests/distributed/inbox-batches.test.ts). The embedded bus hands messages one at a time, so
// only a Kafka consumer batches today; the statements of a lot must hold on either database.

import { startEmbeddedDatabase } from '@paygrid/platform';
import { LOT_SCENARIOS, lotHarness } from '../support/inbox-lots';

let database: Awaited<ReturnType<typeof startEmbeddedDatabase>>;

beforeAll(async () => {
  database = await startEmbeddedDatabase('memory://');
});

afterAll(async () => {
  await database?.close();
});

it.each(Object.keys(LOT_SCENARIOS))('%s', async (name) => {
  const scenario = LOT_SCENARIOS[name];
  const harness = await lotHarness(database.url, scenario.plans);
  try {
    expect(await scenario.run(harness)).toEqual(scenario.expected);
  } finally {
    await harness.close();
  }
});
