// The embedded bus keeps the same guarantee: a redelivered event has its effect once.

import { createLogger, EmbeddedBus, startEmbeddedDatabase } from '@paygrid/platform';
import { runInboxScenario } from '../support/inbox-scenario';

it('applies each event once although the embedded bus delivered it several times', async () => {
  const database = await startEmbeddedDatabase('memory://');
  try {
    const result = await runInboxScenario(
      database.url,
      () => new EmbeddedBus(database.url, createLogger('test', 'silent')),
    );
    expect(result).toEqual({ counter: 2, inboxRows: 2 });
  } finally {
    await database.close();
  }
});
