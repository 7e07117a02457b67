// The slots the event intake reserves for the deliveries it leases (DeliveryWorker.reserve,
// EventLog.record) count against the instance's WEBHOOKS_MAX_IN_FLIGHT with those in flight:
// never more than are free, none while the worker is not running, and free again once given
// back. The database here answers every claim with nothing, so only reservations hold slots.

import { createLogger, systemClock, type Database } from '@paygrid/platform';
import { DeliveryWorker } from '../../apps/webhooks/src/delivery/worker';

const db = {
  // anyClaimable's row; every other statement (the claim, the lease release) finds nothing.
  query: async (sql: string) => (sql.includes(' as due') ? [{ due: false }] : []),
} as unknown as Database;

it('reserves at most the free slots, none unless running, and frees what is released', async () => {
  const worker = new DeliveryWorker(
    db,
    systemClock,
    createLogger('test', 'silent'),
    { allowPrivate: false },
    3,
  );
  expect(worker.reserve(4)).toBe(0);
  worker.start();
  try {
    expect(worker.reserve(2)).toBe(2);
    expect(worker.reserve(4)).toBe(1);
    expect(worker.reserve(1)).toBe(0);
    worker.release(2);
    expect(worker.reserve(4)).toBe(2);
    // A hand-over takes one slot per delivery: of none, it gives no slot back.
    worker.handOver([]);
    expect(worker.reserve(1)).toBe(0);
  } finally {
    await worker.stop();
  }
  expect(worker.reserve(1)).toBe(0);
});
