// The invoicing service's own series (docs/observability.md): the billing engine's due
// backlog and run time, and the mail queue. Gauges are read when Prometheus scrapes, each a
// count on a partial index (subscriptions_due, mail_queue_due), never on the request path.

import type { ServiceRuntime } from '@paygrid/platform';
import type { BillingEngine } from './billing/billing-engine';

/** Seconds: a billing run is a few transactions; a slow one means a backlog or a slow database. */
const RUN_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export function registerInvoicingMetrics(runtime: ServiceRuntime, engine: BillingEngine): void {
  const { metrics, db } = runtime;
  metrics.gauge(
    'paygrid_billing_due_backlog',
    'Subscriptions (on no test clock) whose next action is due now and not yet taken by the billing engine.',
    [],
    async (set) => {
      const [row] = await db.query<{ n: string }>(
        `select count(*)::text as n from invoicing.subscriptions where next_action_at <= now() and test_clock is null`,
      );
      set({}, Number(row.n));
    },
  );
  const runs = metrics.histogram(
    'paygrid_billing_run_duration_seconds',
    'Time one real-time billing engine run took (every action due at the time, until none is left).',
    [],
    RUN_BUCKETS,
  );
  engine.onRun = (seconds) => runs.observe(seconds);
  metrics.gauge(
    'paygrid_mail_queue',
    'Invoice and quote e-mails by state: pending (waiting for a first or next attempt) and failed (gave up).',
    ['state'],
    async (set) => {
      const rows = await db.query<{ status: string; n: string }>(
        `select status, count(*)::text as n from invoicing.mail_queue where status in ('pending', 'failed') group by status`,
      );
      for (const state of ['pending', 'failed'])
        set({ state }, Number(rows.find((r) => r.status === state)?.n ?? 0));
    },
  );
}
