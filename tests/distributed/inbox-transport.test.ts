// The Nest messaging layer (InboxTransport + OutboxClient) through real Kafka and PostgreSQL
// keeps the guarantees of ADR 0004: sent only on commit, effects once, retried in place in
// key order.

import { randomBytes } from 'node:crypto';
import { deleteKafkaNamespace, KafkaBus } from '@paygrid/platform';
import {
  EXPECTED_TRANSPORT_OBSERVATIONS,
  runInboxTransportScenario,
} from '../support/inbox-transport-scenario';

it('runs @EventPattern handlers inside their inbox transaction through Kafka', async () => {
  const brokers = (process.env.KAFKA_BROKERS as string).split(',');
  const prefix = `t${randomBytes(4).toString('hex')}.`;
  try {
    const result = await runInboxTransportScenario(
      process.env.DATABASE_URL as string,
      (logger) =>
        new KafkaBus({
          brokers,
          clientId: 'inbox-transport-test',
          partitions: 2,
          topicPrefix: prefix,
          topics: ['test.events.v1'],
          logger,
        }),
    );
    expect(result).toEqual(EXPECTED_TRANSPORT_OBSERVATIONS);
  } finally {
    await deleteKafkaNamespace(brokers, prefix);
  }
});
