// Issue 12 finding 6: the delivery worker, woken from a request handler (POST
// /v1/webhooks/:id/test, /retry), must not run its round inside the request's
// AsyncLocalStorage transaction, whose query runner is released when the request ends (it was
// QueryRunnerProviderAlreadyReleasedError and a delivery stuck behind its 60 s lease). The
// database here only records the context each call is made in.

import { createLogger, requestTransaction, systemClock, type Database } from '@paygrid/platform';
import { DeliveryWorker } from '../../apps/webhooks/src/delivery/worker';

it('runs a round woken inside a request transaction outside of it', async () => {
  const seen: unknown[] = [];
  let claimed!: () => void;
  const done = new Promise<void>((resolve) => (claimed = resolve));
  // The round's statements (the release of expired leases, then the claim) are single
  // statements: db.query.
  const db = {
    query: async () => {
      seen.push(requestTransaction.getStore());
      claimed();
      return [];
    },
  } as unknown as Database;
  const worker = new DeliveryWorker(db, systemClock, createLogger('test', 'silent'), {
    allowPrivate: false,
  });
  const requestStore = { db, tx: {} } as unknown as Parameters<typeof requestTransaction.run>[0];
  requestTransaction.run(requestStore, () => worker.wake());
  await done;
  await worker.stop();
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.every((store) => store === undefined)).toBe(true);
});
