// Crash recovery of charge and refund intents, and a processor that declines a refund, at
// the service level against the embedded database (no HTTP: the crash is simulated by a
// connector that throws after tx1 committed).
//
// The cases live in payments-recovery/ by concern (charges, Stripe, refunds, the guards written
// with an intent) and run here, in this order, against one embedded platform: each test file
// that starts one costs seconds of CPU, so the suite stays one file.

import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { createLogger, type Database } from '@paygrid/platform';
import { ConnectorRouter, type LiveConnectors } from '../../apps/payments/src/connectors/connector-router';
import { SandboxConnector } from '../../apps/payments/src/connectors/sandbox.connector';
import { TransactionsService } from '../../apps/payments/src/transactions/transactions.service';
import { chargeRecoveryCases } from './payments-recovery/charges.cases';
import { intentGuardCases } from './payments-recovery/intent-guards.cases';
import { card, recoveryContext, tenant, type RecoveryContext } from './payments-recovery/recovery.helpers';
import { refundRecoveryCases } from './payments-recovery/refunds.cases';
import { stripeRecoveryCases } from './payments-recovery/stripe.cases';

let embedded: Embedded;
let db: Database;
let recovery: RecoveryContext;
const ctx = () => recovery;

beforeAll(async () => {
  embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    demo: false,
    logger: createLogger('test', process.env.LOG_LEVEL ?? 'silent'),
  });
  db = embedded.services.payments.runtime.db;
  recovery = recoveryContext(embedded);
});

afterAll(async () => {
  await embedded?.stop();
});

chargeRecoveryCases(ctx);
stripeRecoveryCases(ctx);
refundRecoveryCases(ctx);
intentGuardCases(ctx);

it('refuses a connector call inside a request transaction', async () => {
  const { requestTransaction } = await import('@paygrid/platform');
  const { services } = ctx();
  const { transactions } = services(new SandboxConnector());
  await db.transaction((tx) =>
    requestTransaction.run({ db, tx }, async () => {
      await expect(transactions.chargeCard(tenant, { amount: 100n, currency: 'USD', card })).rejects.toThrow(
        'must not run inside a database transaction',
      );
    }),
  );
});

it('refuses a live charge without a processor (409 processor_not_configured), before any intent', async () => {
  const { services } = ctx();
  const { transactions } = services(new SandboxConnector());
  const live = { account: 'acct_recovery03', livemode: true };
  await expect(transactions.chargeCard(live, { amount: 100n, currency: 'USD', card })).rejects.toMatchObject({
    code: 'processor_not_configured',
    status: 409,
  });
  expect(
    await db.query('select id from payments.transactions where account_id = $1', [live.account]),
  ).toEqual([]);
});

it('refuses a live charge without an active merchant (409 merchant_not_active), before any intent', async () => {
  // A live connection stands in for a connected processor (the sandbox here: no money moves).
  const connected: LiveConnectors = {
    forAccount: async () => new SandboxConnector(),
    configuredAccounts: async () => 1,
  };
  const transactions = new TransactionsService(
    db,
    embedded.services.payments.runtime.clock,
    new ConnectorRouter(new SandboxConnector(), connected),
  );
  const live = { account: 'acct_recovery02', livemode: true };
  await expect(transactions.chargeCard(live, { amount: 100n, currency: 'USD', card })).rejects.toMatchObject({
    code: 'merchant_not_active',
    status: 409,
  });
  expect(
    await db.query('select id from payments.transactions where account_id = $1', [live.account]),
  ).toEqual([]);
});
