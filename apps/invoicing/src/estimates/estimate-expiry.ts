// The expiry job (run every EXPIRY_SWEEP_MS by the app, see invoicing.ts, and by test clocks
// at each step of an advance): sent -> expired once `expires_at` has passed.

import type { Database } from '@paygrid/platform';
import type { EstimateRow } from './estimate.serializer';
import type { EstimateStore } from './estimate.sql';

/** How often the expiry job looks for sent estimates past `expires_at`. */
export const EXPIRY_SWEEP_MS = 60_000;
const EXPIRY_BATCH = 100;

/**
 * sent -> expired for every estimate whose expires_at has passed (estimate.expired, once
 * each). Batches are claimed with `for update skip locked`, so instances share the work.
 * Time is per customer: without `test_clock` only estimates of customers on the real clock
 * (the periodic job); with it, only those of that test clock's customers, at its frozen
 * time (each step of a test clock advance).
 */
export async function runExpiry(
  db: Database,
  store: EstimateStore,
  now: Date,
  scope: { test_clock?: string },
): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await db.transaction(async (tx) => {
      const due = await tx.query<EstimateRow>(
        `select e.* from invoicing.estimates e join invoicing.customers c on c.id = e.customer_id
          where e.status = 'sent' and e.expires_at is not null and e.expires_at <= $1
            and c.test_clock is not distinct from $3::text
          order by e.expires_at limit $2 for update of e skip locked`,
        [now, EXPIRY_BATCH, scope.test_clock ?? null],
      );
      for (const row of due) await store.move(tx, row, 'expire', now, {});
      return due.length;
    });
    total += expired;
    if (expired < EXPIRY_BATCH) return total;
  }
}

/** The earliest expires_at, at or before `to`, of a sent estimate of this test clock's customers. */
export async function nextExpiry(db: Database, testClock: string, to: Date): Promise<Date | null> {
  const [row] = await db.query<{ at: Date | null }>(
    `select min(e.expires_at) as at from invoicing.estimates e join invoicing.customers c on c.id = e.customer_id
      where c.test_clock = $1 and e.status = 'sent' and e.expires_at <= $2`,
    [testClock, to],
  );
  return row?.at ? new Date(row.at) : null;
}
