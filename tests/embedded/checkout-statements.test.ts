// How many statements and round trips the hosted checkout and a refund send to the payments database, pinned (issue 15:
// on this platform the lever is round trips, bench/README.md "The checkout's statements").
// A change that adds a statement, a commit or a round trip to the page or the payment fails
// here and says by how many; one that removes some updates the figures below and the README's table.
//
// Counted on the payments service's own pool (every statement a pooled connection sends,
// BEGIN and COMMIT included; its round trips are those not pipelined behind an unanswered
// statement), from the request's start to its answer. The outbox relay reads
// the same pool after each commit; its statements (reads and deletes of payments.outbox) are
// not the checkout's and are left out. Each figure is the least of three payments, so a
// background job run that happens to overlap one (every 10 s) does not count.

import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { createLogger } from '@paygrid/platform';
import { CARDS, cardForm, csrfOf } from '../support/pages';
import { onStatement } from '../support/statements';

let embedded: Embedded;
let key: string;
const sent: { text: string; behind: boolean }[] = [];
let counting = false;

beforeAll(async () => {
  embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    logger: createLogger('test', process.env.LOG_LEVEL ?? 'silent'),
  });
  key = embedded.demo?.secret_key as string;
  const pool = embedded.services.payments.runtime.db.pool;
  onStatement(pool, ({ text, behind }) => {
    if (counting) sent.push({ text, behind });
  });
});

afterAll(async () => {
  await embedded?.stop();
});

// The relay reads and marks outbox rows; a transaction's own statement inserts them (alone, or
// after the writes it sends with them: Tx.writeAtCommit).
const isRelay = (sql: string) => /payments\.outbox/.test(sql) && !/insert into payments\.outbox/i.test(sql);

async function counted(work: () => Promise<Response>) {
  sent.length = 0;
  counting = true;
  const response = await work();
  const body = await response.text();
  counting = false;
  const statements = sent.filter(({ text }) => !isRelay(text));
  return {
    response,
    body,
    statements: statements.length,
    commits: statements.filter(({ text }) => /^\s*commit\b/i.test(text)).length,
    // Round trips: the statements not pipelined behind an unanswered one (support/statements.ts).
    trips: statements.filter(({ behind }) => !behind).length,
  };
}

/** Three payments on fresh links of `options`: the least statement counts of page and payment. */
async function checkouts(options: Record<string, unknown>) {
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const page: number[] = [];
  const payment: { statements: number; commits: number; trips: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const created = await fetch(`${embedded.url}/v1/payment-links`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ amount: 2500, currency: 'EUR', description: `Counted ${i}`, ...options }),
    });
    expect(created.status).toBe(200);
    const link = (await created.json()) as { id: string };
    const shown = await counted(() => fetch(`${embedded.url}/pay/${link.id}`));
    expect(shown.response.status).toBe(200);
    page.push(shown.statements);
    const paid = await counted(() =>
      fetch(`${embedded.url}/pay/${link.id}`, {
        method: 'POST',
        body: cardForm(csrfOf(shown.body), CARDS.ok),
        redirect: 'manual',
      }),
    );
    expect(paid.response.status).toBe(200);
    expect(paid.body).toContain('Payment successful');
    payment.push({ statements: paid.statements, commits: paid.commits, trips: paid.trips });
  }
  return {
    page: Math.min(...page),
    payment: payment.reduce((a, b) => (b.statements < a.statements ? b : a)),
  };
}

// The payment: the link read for the page's answer; tx1 BEGIN, lock the link (it has a limit),
// one statement that reads the merchant, whether the token was used, the link's completions
// and its charges in flight, and writes the token's row and the intent (intents.sql.ts
// writeCardIntent) and COMMIT, all four in one round trip (IntentClaim.lock, Tx.queryCommitting);
// the processor call; tx2 BEGIN with the outcome and the link's completion count in one
// statement (RecordEffects.withSuccess), then one statement for the ledger legs, the token's
// transaction and the outbox row (Tx.writeAtCommit) with the COMMIT. Before 2026-12-06: 13
// statements (the token's used and in-flight read, its row, the merchant and the intent each a
// statement in tx1; the link's count one in tx2); before 2026-12-07: 6 round trips (the lock's
// answer awaited before the statement behind it was sent, and tx1's COMMIT after the
// statement's answer).
it('a payment on a reusable link: 1 statement for the page, 9 in 2 commits and 4 round trips for the payment', async () => {
  expect(await checkouts({ max_completions: 1_000_000 })).toEqual({
    page: 1,
    payment: { statements: 9, commits: 2, trips: 4 },
  });
});

// A one-time link completes with its payment: its status is written with the at-commit
// statement, and its payment_link.completed event with the outbox row (before 2026-12-06: 14,
// the status a statement of its own; before 2026-12-07: 6 round trips).
it('a payment that completes a one-time link: 9 statements in 2 commits, 4 round trips', async () => {
  expect(await checkouts({})).toEqual({ page: 1, payment: { statements: 9, commits: 2, trips: 4 } });
});

// A link without a limit (recurring, no max_completions) is not locked: tx1 is BEGIN, the one
// statement, COMMIT; tx2 also creates the payer's mandate (its row, then the payment's
// `mandate`: two statements).
it('a payment on a recurring link without a limit: 10 statements in 2 commits, 6 round trips', async () => {
  expect(await checkouts({ type: 'recurring', recurring: { interval: 'month' } })).toEqual({
    page: 1,
    payment: { statements: 10, commits: 2, trips: 6 },
  });
});

/** Three refunds of fresh test payments (with an Idempotency-Key or not): the least counts. */
async function refunds(body: Record<string, unknown>, idempotent: boolean) {
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const counts: { statements: number; commits: number; trips: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const paid = await fetch(`${embedded.url}/v1/transactions/test-helpers/payments`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ amount: 2500, currency: 'EUR', card_number: '4242424242424242' }),
    });
    expect(paid.status).toBe(200);
    const payment = (await paid.json()) as { id: string };
    const refunded = await counted(() =>
      fetch(`${embedded.url}/v1/refunds`, {
        method: 'POST',
        headers: idempotent ? { ...auth, 'idempotency-key': `counted-${Date.now()}-${i}` } : auth,
        body: JSON.stringify({ transaction: payment.id, ...body }),
      }),
    );
    expect(refunded.response.status).toBe(200);
    expect(JSON.parse(refunded.body)).toMatchObject({ status: 'succeeded', amount: body.amount ?? 2500 });
    counts.push({ statements: refunded.statements, commits: refunded.commits, trips: refunded.trips });
  }
  return counts.reduce((a, b) => (b.statements < a.statements ? b : a));
}

// tx1: BEGIN, the guarded reservation (for a full refund, the remainder read under the row's
// lock in the same statement), one statement for the refund's transaction, its row and the
// outbox row (Tx.writeAtCommit), COMMIT; the processor call; tx2: BEGIN, the refund settled and
// its transaction settled in one statement (RecordEffects.claim), one statement for the ledger
// legs and the outbox row, COMMIT. Before 2026-12-03: 12 for a full refund, 11 for a partial
// one, 13 with a key (the payment read first for a full refund, the two inserts and the outbox
// row each a statement); before 2026-12-06: 9 (the refund settled in a statement of its own).
it('a full refund: 8 statements in 2 commits, 4 round trips', async () => {
  expect(await refunds({}, false)).toEqual({ statements: 8, commits: 2, trips: 4 });
});

it('a partial refund: 8 statements in 2 commits, 4 round trips', async () => {
  expect(await refunds({ amount: 1000 }, false)).toEqual({ statements: 8, commits: 2, trips: 4 });
});

// The key's earlier use is looked up in the reservation's statement (refunds.sql.ts
// reserveAmount; before 2026-12-06 a statement of its own: 10).
it('a refund with an Idempotency-Key: 8 statements in 2 commits, 4 round trips', async () => {
  expect(await refunds({}, true)).toEqual({ statements: 8, commits: 2, trips: 4 });
});
