// A lag-tolerant consumer (Subscription.fetchWindowMs) through real Kafka: its fetches gather
// the messages of its window, so a trickle of messages costs a few fetches and offset commits
// instead of one each, and it still handles every message once, in key order. The same
// trickle to a default consumer is the contrast: there, each fetch answers at its first message.
// Either way offsets are committed at most once a second (OFFSET_COMMIT_INTERVAL_MS), not once
// per fetch, and a clean close commits the last ones: the group's committed offset is then the
// end of the partition.

import { randomBytes } from 'node:crypto';
import { Kafka, type Consumer } from 'kafkajs';
import {
  createLogger,
  deleteKafkaNamespace,
  KafkaBus,
  OFFSET_COMMIT_INTERVAL_MS,
  sleep,
  type Subscription,
} from '@paygrid/platform';

const TOPIC = 'test.events.v1';
const MESSAGES = 40;

/** Publishes MESSAGES one at a time, 10 ms apart; returns what the consumer handled and its batches. */
async function trickle(
  window: Pick<Subscription, 'fetchWindowMs'>,
): Promise<{ handled: string[]; batches: number[]; commits: number; publishMs: number; committed: string }> {
  const brokers = (process.env.KAFKA_BROKERS as string).split(',');
  const prefix = `t${randomBytes(4).toString('hex')}.`;
  const batches: number[] = [];
  let commits = 0;
  let committed = '';
  // The bus's kafkajs consumer, to count the batches each fetch brought (instrumentation events).
  const make = jest.spyOn(Kafka.prototype, 'consumer');
  const bus = new KafkaBus({
    brokers,
    clientId: 'fetch-window-test',
    partitions: 1,
    topicPrefix: prefix,
    topics: [TOPIC],
    logger: createLogger('test', 'silent'),
  });
  const handled: string[] = [];
  let closed = false;
  try {
    await bus.connect();
    await bus.subscribe({
      groupId: 'fetch-window',
      topics: [TOPIC],
      ...window,
      handler: async (message) => {
        handled.push(message.value);
      },
    });
    const consumer = make.mock.results[0].value as Consumer;
    consumer.on(consumer.events.START_BATCH_PROCESS, (event) => {
      batches.push(event.payload.batchSize);
    });
    consumer.on(consumer.events.COMMIT_OFFSETS, () => commits++);
    // The group is joined when the first message comes through.
    await bus.publish(TOPIC, [{ key: 'k', value: 'warm-up' }]);
    for (let i = 0; i < 200 && !handled.length; i++) await sleep(50);
    batches.length = 0;
    // The warm-up's commit, due at once: what follows counts the trickle's.
    await sleep(OFFSET_COMMIT_INTERVAL_MS + 200);
    commits = 0;
    const started = Date.now();
    for (let i = 0; i < MESSAGES; i++) {
      await bus.publish(TOPIC, [{ key: 'k', value: `m${i}` }]);
      await sleep(10);
    }
    const publishMs = Date.now() - started;
    for (let i = 0; i < 200 && handled.length < MESSAGES + 1; i++) await sleep(50);
    closed = true;
    await bus.close();
    const admin = new Kafka({ brokers, clientId: 'fetch-window-test-admin' }).admin();
    await admin.connect();
    try {
      const [offsets] = await admin.fetchOffsets({
        groupId: `${prefix}fetch-window`,
        topics: [`${prefix}${TOPIC}`],
      });
      committed = offsets.partitions[0].offset;
    } finally {
      await admin.disconnect();
    }
    return { handled, batches, commits, publishMs, committed };
  } finally {
    make.mockRestore();
    if (!closed) await bus.close();
    await deleteKafkaNamespace(brokers, prefix);
  }
}

const expected = ['warm-up', ...Array.from({ length: MESSAGES }, (_, i) => `m${i}`)];

it('gathers a trickle of messages into a few fetches within the window, each message once and in order', async () => {
  const { handled, batches, publishMs } = await trickle({ fetchWindowMs: 200 });
  expect(handled).toEqual(expected);
  expect(batches.reduce((a, b) => a + b, 0)).toBe(MESSAGES);
  // About one batch per 200 ms of publishing (three for the 600 ms it takes here), and in any
  // case far fewer than one per message.
  expect(batches.length).toBeLessThanOrEqual(Math.ceil(publishMs / 200) + 2);
  expect(batches.length).toBeLessThan(MESSAGES / 2);
});

it('answers each fetch at its first message without a window (the latency-bound default)', async () => {
  const { handled, batches, commits, publishMs, committed } = await trickle({});
  expect(handled).toEqual(expected);
  expect(batches.reduce((a, b) => a + b, 0)).toBe(MESSAGES);
  expect(batches.length).toBeGreaterThan(20);
  // One commit per second of consuming (and the close's), not one per fetch: kafkajs alone
  // committed after each of the 20 or more batches.
  expect(commits).toBeLessThanOrEqual(Math.ceil(publishMs / OFFSET_COMMIT_INTERVAL_MS) + 2);
  expect(commits).toBeLessThan(batches.length / 4);
  // Every message handled is committed: the warm-up and the trickle, offsets 0 to MESSAGES.
  expect(committed).toBe(String(MESSAGES + 1));
});
