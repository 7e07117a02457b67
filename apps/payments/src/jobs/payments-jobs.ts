// The payments service's background work, on one timer per instance (every instance runs
// it; each job is safe to run concurrently: SKIP LOCKED claims and guarded updates):
//   - charge the mandates that are due (MandatesService.chargeDue, until none is left);
//   - expire payment links past expires_at (payment_link.expired);
//   - recover intents left pending by a crash: stored-card charges are re-driven, card
//     charges are failed (their card number was never stored), refunds are re-driven;
//   - forget old checkout form submissions.
// Ticks of one instance never overlap (runOnce chains them). Time comes from the injected
// clock, so a test clock moves all of it.

import { Periodic, type Logger } from '@paygrid/platform';
import type { MandatesService } from '../mandates/mandates.service';
import type { PaymentLinksService } from '../payment-links/payment-links.service';
import type { RefundsService } from '../refunds/refunds.service';
import type { TransactionsService } from '../transactions/transactions.service';

/** A pending intent older than this is a crash's leftover (well above the connector's time-out). */
export const STALE_INTENT_MS = 5 * 60 * 1000;
/** Checkout form tokens live an hour; their submissions are kept a week, then forgotten. */
export const SUBMISSION_RETENTION_MS = 7 * 24 * 3600 * 1000;

export interface JobReport {
  mandate_charges: number;
  links_expired: number;
  recovered: { mandate_charges: number; payments: number; refunds: number };
}

export class PaymentsJobs {
  private readonly timer: Periodic;
  private running: Promise<JobReport> | undefined;

  constructor(
    private readonly deps: {
      mandates: MandatesService;
      links: PaymentLinksService;
      transactions: TransactionsService;
      refunds: RefundsService;
      logger: Logger;
    },
    intervalMs: number,
  ) {
    this.timer = new Periodic('payments jobs', intervalMs, () => this.runOnce(), deps.logger);
  }

  start(): void {
    this.timer.start();
  }

  async stop(): Promise<void> {
    await this.timer.stop();
    await this.running?.catch(() => undefined);
  }

  /** One pass of every job; a call while a pass runs waits for it and then runs its own. */
  runOnce(): Promise<JobReport> {
    const previous = this.running ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(() => this.pass());
    this.running = next;
    return next;
  }

  private async pass(): Promise<JobReport> {
    const { mandates, links, transactions, refunds } = this.deps;
    const report: JobReport = {
      mandate_charges: 0,
      links_expired: 0,
      recovered: { mandate_charges: 0, payments: 0, refunds: 0 },
    };
    report.recovered.mandate_charges = await mandates.recoverPending(STALE_INTENT_MS);
    report.recovered.payments = await transactions.recoverPending(STALE_INTENT_MS);
    report.recovered.refunds = await refunds.recoverPending(STALE_INTENT_MS);
    // Missed cycles (the service was down) are each owed: keep charging until none is due.
    for (let round = 0; round < 100; round++) {
      const started = await mandates.chargeDue(50);
      report.mandate_charges += started;
      if (started === 0) break;
    }
    report.links_expired = await links.expireDue();
    await links.pruneSubmissions(SUBMISSION_RETENTION_MS);
    return report;
  }
}
