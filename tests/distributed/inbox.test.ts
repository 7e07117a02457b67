// A redelivered event has its effect once, through real Kafka and PostgreSQL.

import { randomBytes } from 'node:crypto';
import { createLogger, KafkaBus } from '@paygrid/platform';
import { runInboxScenario } from '../support/inbox-scenario';

it('applies each event once although Kafka delivered it several times', async () => {
  const result = await runInboxScenario(
    process.env.DATABASE_URL as string,
    () =>
      new KafkaBus({
        brokers: (process.env.KAFKA_BROKERS as string).split(','),
        clientId: 'inbox-test',
        partitions: 2,
        topicPrefix: `t${randomBytes(4).toString('hex')}.`,
        topics: ['test.events.v1'],
        logger: createLogger('test', 'silent'),
      }),
  );
  expect(result).toEqual({ counter: 2, inboxRows: 2 });
});
