// A test run's or benchmark's Kafka namespace is removed on a real broker: its topics and its
// (empty) consumer groups go, another prefix's topics stay.

import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { deleteKafkaNamespace } from '@paygrid/platform';

const brokers = (process.env.KAFKA_BROKERS as string).split(',');
const kafka = new Kafka({ clientId: 'namespace-test', brokers, logLevel: logLevel.NOTHING });

it('deletes the topics and consumer groups under one prefix and nothing else', async () => {
  const mine = `t${randomBytes(4).toString('hex')}.`;
  const other = `t${randomBytes(4).toString('hex')}.`;
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({
      topics: [`${mine}a.v1`, `${mine}b.v1`, `${other}a.v1`].map((topic) => ({ topic, numPartitions: 1 })),
      waitForLeaders: true,
    });
    // A group that committed an offset and left: it exists, empty.
    const consumer = kafka.consumer({ groupId: `${mine}group` });
    await consumer.connect();
    await consumer.subscribe({ topic: `${mine}a.v1`, fromBeginning: true });
    await consumer.run({ eachMessage: async () => undefined });
    await consumer.disconnect();
    expect((await admin.listGroups()).groups.map((g) => g.groupId)).toContain(`${mine}group`);

    const removed = await deleteKafkaNamespace(brokers, mine);

    expect(removed.topics.sort()).toEqual([`${mine}a.v1`, `${mine}b.v1`]);
    expect(removed.groups).toEqual([`${mine}group`]);
    // A deletion the controller has accepted reaches the broker's metadata a moment later
    // (seen in CI with another suite creating topics at the same time): wait, bounded.
    let topics = await admin.listTopics();
    for (let waited = 0; topics.some((t) => t.startsWith(mine)) && waited < 15_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      topics = await admin.listTopics();
    }
    expect(topics.filter((t) => t.startsWith(mine))).toEqual([]);
    expect(topics).toContain(`${other}a.v1`);
    expect((await admin.listGroups()).groups.map((g) => g.groupId)).not.toContain(`${mine}group`);
    await expect(deleteKafkaNamespace(brokers, '')).rejects.toThrow('empty prefix');
  } finally {
    await deleteKafkaNamespace(brokers, other);
    await admin.disconnect();
  }
});
