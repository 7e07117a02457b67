// The Nest messaging layer (InboxTransport + OutboxClient) on the embedded bus keeps the
// guarantees of ADR 0004: sent only on commit, effects once, retried in place in key order.

import { EmbeddedBus, startEmbeddedDatabase } from '@paygrid/platform';
import {
  EXPECTED_TRANSPORT_OBSERVATIONS,
  runInboxTransportScenario,
} from '../support/inbox-transport-scenario';

it('runs @EventPattern handlers inside their inbox transaction on the embedded bus', async () => {
  const database = await startEmbeddedDatabase('memory://');
  try {
    const result = await runInboxTransportScenario(
      database.url,
      (logger) => new EmbeddedBus(database.url, logger),
    );
    expect(result).toEqual(EXPECTED_TRANSPORT_OBSERVATIONS);
  } finally {
    await database.close();
  }
});
