// The embedded bus hands what one read of the log returns to a subscription's batch handler,
// as KafkaBus hands a fetch (bench/README.md finding 57): up to MAX_BATCH_MESSAGES at a time,
// in log order; the message a batch stopped at is retried alone through the single-message
// handler (its failure in the batch counting as the first attempt), then batching goes on after
// it; a batch that throws has its messages handled one at a time. Every message once, in order.

import {
  createLogger,
  EmbeddedBus,
  MAX_BATCH_MESSAGES,
  startEmbeddedDatabase,
  type BatchOutcome,
  type ConsumedMessage,
} from '@paygrid/platform';
import { eventually } from '../support/platform';

const logger = createLogger('test', 'silent');

let database: Awaited<ReturnType<typeof startEmbeddedDatabase>>;

beforeAll(async () => {
  database = await startEmbeddedDatabase('memory://');
});

afterAll(async () => {
  await database?.close();
});

/**
 * A bus subscribed with a batch handler that takes each message in order and stops at the
 * values in `stopAt` (once each: the retry through the single handler then succeeds), or
 * throws for the batch that starts at `throwAt`. Publishes `count` messages at once, before
 * the subscription, so the first read returns them all.
 */
async function run(topic: string, count: number, stopAt: string[], throwAt?: string) {
  const bus = new EmbeddedBus(database.url, logger);
  const batches: string[][] = [];
  const singles: string[] = [];
  const handled: string[] = [];
  const stopped = new Set<string>();
  await bus.connect();
  try {
    await bus.publish(
      topic,
      Array.from({ length: count }, (_, i) => ({ key: `k${i % 3}`, value: `m${i}` })),
    );
    let thrown = false;
    await bus.subscribe({
      groupId: `batches-${topic}`,
      topics: [topic],
      handler: async (message: ConsumedMessage) => {
        singles.push(message.value);
        handled.push(message.value);
      },
      batchHandler: async (messages: ConsumedMessage[]): Promise<BatchOutcome> => {
        batches.push(messages.map((m) => m.value));
        if (throwAt !== undefined && messages[0].value === throwAt && !thrown) {
          thrown = true;
          throw new Error('the batch commit failed');
        }
        for (let i = 0; i < messages.length; i++) {
          const value = messages[i].value;
          if (stopAt.includes(value) && !stopped.has(value)) {
            stopped.add(value);
            return { handled: i, error: new Error(`${value} fails`) };
          }
          handled.push(value);
        }
        return { handled: messages.length };
      },
    });
    await eventually(async () => (handled.length >= count ? true : undefined), 10_000);
    // Anything more that should not come.
    await new Promise((r) => setTimeout(r, 100));
  } finally {
    await bus.close();
  }
  return { batches, singles, handled };
}

const values = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `m${from + i}`);

it('hands a read to the batch handler MAX_BATCH_MESSAGES at a time, in log order, each message once', async () => {
  expect(MAX_BATCH_MESSAGES).toBe(25);
  const { batches, singles, handled } = await run('batches.all.v1', 60, []);
  expect(handled).toEqual(values(0, 60));
  expect(batches).toEqual([values(0, 25), values(25, 50), values(50, 60)]);
  expect(singles).toEqual([]);
});

it('retries the message a batch stopped at alone, then batches the rest after it', async () => {
  const { batches, singles, handled } = await run('batches.stop.v1', 30, ['m10']);
  expect(handled).toEqual(values(0, 30));
  // The batch took m0..m9 and stopped at m10: m10 alone, then a batch from m11.
  expect(batches).toEqual([values(0, 25), values(11, 30)]);
  expect(singles).toEqual(['m10']);
});

it('handles a batch that threw one message at a time until the next batch', async () => {
  const { batches, singles, handled } = await run('batches.throw.v1', 30, [], 'm0');
  expect(handled).toEqual(values(0, 30));
  // The throwing batch had no effect: its first message alone, then batches again from m1.
  expect(batches).toEqual([values(0, 25), values(1, 26), values(26, 30)]);
  expect(singles).toEqual(['m0']);
});

it('hands a read of one message to the single-message handler', async () => {
  const { batches, singles } = await run('batches.one.v1', 1, []);
  expect(batches).toEqual([]);
  expect(singles).toEqual(['m0']);
});
