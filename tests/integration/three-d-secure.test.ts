// 3-D Secure through the hosted checkout, in both modes, with the sandbox's card
// 4000 0027 6000 3184 (HTTP form posts, no JS): the checkout redirects to the challenge page,
// the transaction is requires_action (payment.requires_action) meanwhile, the payer approves
// or fails, and the sealed return URL settles it once: succeeded with its ledger legs, or
// failed with authentication_required. A forged return is refused; a replayed one records
// nothing twice.

import { ledgerImbalances } from '../../apps/payments/src/ledger/ledger';
import { eventAbout } from '../support/events';
import { csrfOf, pathOf, payPage } from '../support/pages';
import { startPlatform, type Platform, type TestAccount } from '../support/platform';

const THREE_DS = '4000002760003184';
let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments']);
}, 120_000);

afterAll(async () => {
  await platform?.stop();
});

const api = (method: string, path: string, body?: unknown) =>
  platform.api(account.testKey, method, path, body);

async function newLink(extra: Record<string, unknown> = {}): Promise<string> {
  const link = await api('POST', '/v1/payment-links', {
    currency: 'EUR',
    line_items: [{ description: 'Ticket', quantity: 1, unit_amount: 4200 }],
    ...extra,
  });
  expect(link.status).toBe(200);
  return link.body.id;
}

/** Pays the link with the 3-D Secure card: answers the challenge path and the transaction. */
async function startPayment(link: string) {
  const posted = await payPage(platform, `/pay/${link}`, THREE_DS);
  expect(posted.status).toBe(303);
  const challenge = pathOf(String(posted.headers.get('location')));
  expect(challenge).toMatch(/^\/pay\/sandbox\/challenge\/sbx_3ds_[0-9a-f]+\?return_url=/);
  const list = await api('GET', `/v1/transactions?payment_link=${link}`);
  expect(list.body.data).toHaveLength(1);
  return { challenge, transaction: list.body.data[0] };
}

async function decide(challenge: string, decision: 'approved' | 'failed') {
  const page = await platform.api(undefined, 'GET', challenge);
  expect(page.status).toBe(200);
  const html = String(page.body);
  const returnUrl = /name="return_url" value="([^"]+)"/.exec(html)?.[1].replace(/&amp;/g, '&') ?? '';
  const posted = await platform.api(
    undefined,
    'POST',
    challenge.split('?')[0],
    new URLSearchParams({ csrf_token: csrfOf(html), return_url: returnUrl, decision }),
  );
  expect(posted.status).toBe(303);
  return pathOf(String(posted.headers.get('location')));
}

const ledger = () => ({
  query: <T>(text: string, params?: unknown[]) => platform.sql<T>('payments', text, params),
});
const eventCount = async (id: string, type: string) =>
  (
    await platform.sql<{ n: number }>(
      'payments',
      `select count(*)::int as n from payments.outbox where payload->>'type' = $1 and payload->'data'->'object'->>'id' = $2`,
      [type, id],
    )
  )[0].n;

it('approved: requires_action with its event, then succeeded once through the return URL', async () => {
  const link = await newLink({ max_completions: 1 });
  const { challenge, transaction } = await startPayment(link);
  expect(transaction).toMatchObject({ status: 'requires_action', amount: 4200, refundable_amount: 0 });
  const waiting = await eventAbout(platform, account.testKey, 'payment.requires_action', transaction.id);
  expect(waiting.data.object.status).toBe('requires_action');

  const back = await decide(challenge, 'approved');
  expect(back).toMatch(new RegExp(`^/pay/return/${transaction.id}\\?token=`));
  // A forged token, or this transaction's token on another transaction, is refused.
  expect((await platform.api(undefined, 'GET', `/pay/return/${transaction.id}?token=forged`)).status).toBe(
    403,
  );
  const other = await startPayment(await newLink());
  const token = new URL(back, 'http://x').searchParams.get('token') ?? '';
  expect(
    (await platform.api(undefined, 'GET', `/pay/return/${other.transaction.id}?token=${token}`)).status,
  ).toBe(403);
  expect((await api('GET', `/v1/transactions/${other.transaction.id}`)).body.status).toBe('requires_action');

  const returned = await platform.api(undefined, 'GET', back);
  expect(returned.status).toBe(200);
  expect(String(returned.body)).toContain('Payment successful');
  const paid = await api('GET', `/v1/transactions/${transaction.id}`);
  expect(paid.body).toMatchObject({ status: 'succeeded', refundable_amount: 4200 });
  await eventAbout(platform, account.testKey, 'payment.succeeded', transaction.id);
  // The one-time link completes with the payment recorded on return.
  expect((await api('GET', `/v1/payment-links/${link}`)).body).toMatchObject({ status: 'completed' });

  // Replayed: the return and a second decision record nothing more.
  expect((await platform.api(undefined, 'GET', back)).status).toBe(200);
  await decide(challenge, 'failed').catch(() => undefined);
  expect((await api('GET', `/v1/transactions/${transaction.id}`)).body.status).toBe('succeeded');
  expect(await eventCount(transaction.id, 'payment.succeeded')).toBe(1);
  const legs = await platform.sql<{ n: number }>(
    'payments',
    'select count(*)::int as n from payments.ledger_entries where transaction_id = $1',
    [transaction.id],
  );
  expect(legs[0].n).toBeGreaterThan(0);
  expect(await ledgerImbalances(ledger())).toEqual([]);
});

it('failed: the payment is failed with authentication_required, nothing charged, a clear page', async () => {
  const { challenge, transaction } = await startPayment(await newLink());
  const back = await decide(challenge, 'failed');
  const returned = await platform.api(undefined, 'GET', back);
  expect(returned.status).toBe(402);
  expect(String(returned.body)).toContain('You have not been charged');
  const row = await api('GET', `/v1/transactions/${transaction.id}`);
  expect(row.body).toMatchObject({
    status: 'failed',
    failure_code: 'authentication_required',
    refundable_amount: 0,
  });
  expect(await eventCount(transaction.id, 'payment.failed')).toBe(1);
  expect(await eventCount(transaction.id, 'payment.succeeded')).toBe(0);
});
