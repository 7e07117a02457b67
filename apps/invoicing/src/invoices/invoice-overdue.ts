// The overdue sweep: open invoices past their due date are marked overdue once each
// (invoice.overdue). src/invoicing.ts runs it every OVERDUE_SWEEP_MS; test clocks run it for
// their own customers' invoices when they advance.

import { TOPICS } from '@paygrid/contracts';
import { type Database, emitRowEvent, type Tenant } from '@paygrid/platform';
import { type InvoiceRow, serializeInvoice } from './invoice.serializer';

/** How often the app runs the overdue sweep (invoicing.ts; every instance, claims do not overlap). */
export const OVERDUE_SWEEP_MS = 60_000;

/**
 * Marks open invoices past their due date as overdue, once each (invoice.overdue). Claims
 * batches with `for update skip locked`, so several instances can run it at once. The
 * real-time timer passes no test_clock and leaves test-clock customers' invoices to their
 * clock; a test clock passes its id.
 */
export async function runOverdue(
  db: Database,
  now: Date,
  scope: { tenant?: Tenant; test_clock?: string },
  publicBaseUrl: string,
): Promise<number> {
  const where = [`status = 'open'`, 'overdue_at is null', 'due_date <= $1'];
  const params: unknown[] = [now];
  if (scope.test_clock) {
    params.push(scope.test_clock);
    where.push(`test_clock = $${params.length}`);
  } else {
    where.push('test_clock is null');
  }
  if (scope.tenant) {
    params.push(scope.tenant.account, scope.tenant.livemode);
    where.push(`account_id = $${params.length - 1}`, `livemode = $${params.length}`);
  }
  let marked = 0;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const rows = await tx.query<InvoiceRow>(
        `update invoicing.invoices set overdue_at = $1, updated_at = $1
          where id in (select id from invoicing.invoices where ${where.join(' and ')}
                        order by due_date limit 100 for update skip locked)
          returning *`,
        params,
      );
      for (const row of rows) {
        await emitRowEvent(tx, TOPICS.invoicingEvents, row, {
          type: 'invoice.overdue',
          object: serializeInvoice(row, publicBaseUrl),
          at: now,
        });
      }
      return rows.length;
    });
    marked += batch;
    if (batch < 100) return marked;
  }
}
