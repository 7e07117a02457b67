// A lag-tolerant consumer (Subscription.fetchWindowMs) through real Kafka: its fetches gather
// the messages of its window, so a trickle of messages costs a few fetches and offset commits
// instead of one each, and it still handles every message once, in key order. The same
// trickle to a default consumer is the contrast: there, each fetch answers at its first message.

import { randomBytes } from 'node:crypto';
import { Kafka, type Consumer } from 'kafkajs';
import { createLogger, deleteKafkaNamespace, KafkaBus, sleep, type Subscription } from '@paygrid/platform';

const TOPIC = 'test.events.v1';
const MESSAGES = 40;

/** Publishes MESSAGES one at a time, 10 ms apart; returns what the consumer handled and its batches. */
async function trickle(
  window: Pick<Subscription, 'fetchWindowMs'>,
): Promise<{ handled: string[]; batches: number[]; publishMs: number }> {
  const brokers = (process.env.KAFKA_BROKERS as string).split(',');
  const prefix = `t${randomBytes(4).toString('hex')}.`;
  const batches: number[] = [];
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
    // The group is joined when the first message comes through.
    await bus.publish(TOPIC, [{ key: 'k', value: 'warm-up' }]);
    for (let i = 0; i < 200 && !handled.length; i++) await sleep(50);
    batches.length = 0;
    const started = Date.now();
    for (let i = 0; i < MESSAGES; i++) {
      await bus.publish(TOPIC, [{ key: 'k', value: `m${i}` }]);
      await sleep(10);
    }
    const publishMs = Date.now() - started;
    for (let i = 0; i < 200 && handled.length < MESSAGES + 1; i++) await sleep(50);
    return { handled, batches, publishMs };
  } finally {
    make.mockRestore();
    await bus.close();
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
  const { handled, batches } = await trickle({});
  expect(handled).toEqual(expected);
  expect(batches.reduce((a, b) => a + b, 0)).toBe(MESSAGES);
  expect(batches.length).toBeGreaterThan(20);
});
