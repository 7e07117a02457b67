// docs/adr/0015: an idempotent request's transaction is passed explicitly (@RequestTx(), then
// `transaction(work, { in: tx })` or `tx.query`). The request's AsyncLocalStorage scope is only a
// guard: a statement sent to the same Database without the transaction is an error under the
// test suites' policy, and joins the transaction with an error logged under production's. The
// pool and the connection here only say which one answered.

import {
  Database,
  requestTransaction,
  Tx,
  type Logger,
  type MissingTransactionPolicy,
} from '@paygrid/platform';
import type { Pool } from 'pg';

const answering = (via: string) => ({ query: async () => ({ rows: [{ via }] }) });

function database(policy: MissingTransactionPolicy, logged: string[] = []) {
  const logger = { error: (_: unknown, message: string) => logged.push(message) } as unknown as Logger;
  const pool = answering('pool') as unknown as Pool;
  const db = new Database(
    pool,
    'payments',
    { url: 'postgres://unused', migrations: [], missingTransaction: policy },
    logger,
  );
  return { db, tx: new Tx(answering('request tx'), 'payments') };
}

it('sends a statement to the pool outside a request transaction', async () => {
  const { db } = database('throw');
  await expect(db.query('select 1')).resolves.toEqual([{ via: 'pool' }]);
});

it('runs work in the transaction it is given, and refuses one without it inside the request (throw policy)', async () => {
  const { db, tx } = database('throw');
  await requestTransaction.run({ db, tx }, async () => {
    await expect(db.transaction(async (t) => t.query('select 1'), { in: tx })).resolves.toEqual([
      { via: 'request tx' },
    ]);
    await expect((tx as Tx).query('select 1')).resolves.toEqual([{ via: 'request tx' }]);
    await expect(db.query('select 1')).rejects.toThrow(
      "payments: query() inside a request's transaction without it",
    );
    await expect(db.transaction(async () => 'ran')).rejects.toThrow(
      "payments: transaction() inside a request's transaction without it",
    );
  });
});

it('joins the request transaction and logs an error under the join policy (production)', async () => {
  const logged: string[] = [];
  const { db, tx } = database('join', logged);
  await requestTransaction.run({ db, tx }, async () => {
    await expect(db.query('select 1')).resolves.toEqual([{ via: 'request tx' }]);
    await expect(db.transaction(async (t) => t === tx)).resolves.toBe(true);
  });
  expect(logged).toEqual([
    "payments: query() inside a request's transaction without it (pass the request's Tx: docs/adr/0015)",
    "payments: transaction() inside a request's transaction without it (pass the request's Tx: docs/adr/0015)",
  ]);
});

it("leaves another service's Database alone inside a request transaction", async () => {
  const { db, tx } = database('throw');
  const other = database('throw').db;
  await requestTransaction.run({ db, tx }, async () => {
    await expect(other.query('select 1')).resolves.toEqual([{ via: 'pool' }]);
  });
});
