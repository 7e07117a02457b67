// The payer's return from authentication (3-D Secure): the processor is asked what became of
// the payment (connector.lookup by the reference recorded with requires_action) and its answer
// is recorded through the saga's guarded `record` (TransactionsService.recordLate, which also
// completes a payment link in the same transaction). The same path serves a payer who
// returns twice, a forged-then-replayed URL, or a processor webhook that came first: the
// record happens once, every later call answers the transaction as it stands.

import type { TransactionRow } from '../transactions/transaction';
import type { TransactionsService } from '../transactions/transactions.service';

export class SettleAuthentication {
  constructor(private readonly transactions: TransactionsService) {}

  /** The transaction after settling it, or as it stands when nothing can be recorded yet. */
  async settle(id: string): Promise<TransactionRow | undefined> {
    const row = await this.transactions.byId(id);
    if (!row || row.status !== 'requires_action') return row;
    const outcome = await this.transactions.lookup(row);
    if (!outcome) return row;
    return this.transactions.recordLate(id, outcome);
  }
}
