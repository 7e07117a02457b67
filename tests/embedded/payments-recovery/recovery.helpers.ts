// What the payments-recovery suite's case modules share: the tenant and card they charge, the
// connectors that lose or decline an answer, and the services built on the embedded platform
// that tests/embedded/payments-recovery.test.ts starts once for all of them.

import type { Embedded } from '@paygrid/embedded';
import type { Database } from '@paygrid/platform';
import type { PaymentConnector } from '../../../apps/payments/src/connectors/connector';
import { ConnectorRouter, NO_LIVE_CONNECTORS } from '../../../apps/payments/src/connectors/connector-router';
import { SandboxConnector } from '../../../apps/payments/src/connectors/sandbox.connector';
import { RefundsService } from '../../../apps/payments/src/refunds/refunds.service';
import { TransactionsService } from '../../../apps/payments/src/transactions/transactions.service';

export const tenant = { account: 'acct_recovery01', livemode: false };
export const card = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2099, cvc: '123' };

export class CrashingConnector extends SandboxConnector {
  override async charge(): Promise<never> {
    throw new Error('connection reset');
  }
  override async refund(): Promise<never> {
    throw new Error('connection reset');
  }
}

export class DecliningRefunds extends SandboxConnector {
  override refund: PaymentConnector['refund'] = async (request) => ({
    status: 'failed',
    code: 'processing_error',
    message: 'The processor refused the refund.',
    processor_reference: `sbx_re_${request.idempotency_key}`,
  });
}

/** The running platform and what the cases build on it; the test file fills it in its beforeAll. */
export interface RecoveryContext {
  embedded: Embedded;
  db: Database;
  /** `authenticationTimeoutMs`: how long a payer has for 3-D Secure (default: the service's hour). */
  services: (
    sandbox: PaymentConnector,
    authenticationTimeoutMs?: number,
  ) => { transactions: TransactionsService; refunds: RefundsService };
  /** The types of the events the outbox holds for one object, oldest first. */
  eventsOf: (id: string) => Promise<string[]>;
}

export function recoveryContext(embedded: Embedded): RecoveryContext {
  const db = embedded.services.payments.runtime.db;
  const services = (sandbox: PaymentConnector, authenticationTimeoutMs?: number) => {
    const connector = new ConnectorRouter(sandbox, NO_LIVE_CONNECTORS);
    const clock = embedded.services.payments.runtime.clock;
    return {
      transactions: new TransactionsService(db, clock, connector, undefined, authenticationTimeoutMs),
      refunds: new RefundsService(db, clock, connector),
    };
  };
  const eventsOf = async (id: string) =>
    (
      await db.query<{ type: string }>(
        `select payload->>'type' as type from payments.outbox where payload->'data'->'object'->>'id' = $1 order by id`,
        [id],
      )
    ).map((e) => e.type);
  return { embedded, db, services, eventsOf };
}
