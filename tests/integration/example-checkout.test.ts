// The example app (examples/checkout) end to end, in both run modes: the shop creates a link
// through the SDK, a payer pays it on the hosted page (an HTML form post, as without
// JavaScript), and the shop receives the typed payment.succeeded event through the real
// `paygrid listen` binary (a child process, secret read from its output), verifies it and
// marks the order paid. A forged delivery is refused.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Paygrid, sign } from '@paygrid/sdk';
import { startShop, type Order, type Shop } from '../../examples/checkout/src/shop';
import { CARDS, pathOf, payPage } from '../support/pages';
import { eventually, ROOT, usePlatform } from '../support/platform';

const suite = usePlatform({}, ['payments']);
const CLI = join(ROOT, 'packages', 'cli', 'dist', 'main.js');
let listener: ChildProcess;
let shop: Shop;
const output: string[] = [];

beforeAll(() => {
  // The binary as an integrator runs it (npm run build, which `npm test` does first).
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build`);
});

/** Ctrl-C for the listener: it stops streaming and exits 0. */
async function stopListener(): Promise<number | null> {
  if (!listener || listener.exitCode !== null) return listener?.exitCode ?? null;
  const exited = once(listener, 'exit');
  listener.kill('SIGINT');
  return ((await exited) as [number | null])[0];
}

// Before the platform stops (the suite's own afterAll runs later): an open stream is a client.
afterAll(async () => {
  await stopListener();
  await shop?.stop().catch(() => undefined);
});

it('checks out, pays on the hosted page, and receives the verified payment.succeeded via paygrid listen', async () => {
  // 1. The shop; its secret is the one paygrid listen prints, known once listen runs.
  const config = {
    paygrid: new Paygrid(suite.account.testKey, { baseUrl: suite.platform.url }),
    webhookSecret: '',
  };
  shop = await startShop(config);

  // 2. paygrid listen, forwarding payment.succeeded to the shop's /hooks.
  listener = spawn(
    process.execPath,
    [CLI, 'listen', '--forward-to', `${shop.url}/hooks`, '--events', 'payment.succeeded'],
    {
      env: { ...process.env, PAYGRID_KEY: suite.account.testKey, PAYGRID_URL: suite.platform.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  listener.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  listener.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  config.webhookSecret = await eventually(async () => /whsec_[A-Za-z0-9+/=]+/.exec(output.join(''))?.[0]);
  await eventually(async () => output.join('').includes('Ready') || undefined);

  const checkout = (await (
    await fetch(`${shop.url}/checkout`, {
      method: 'POST',
      body: JSON.stringify({ amount: 4200, currency: 'EUR' }),
    })
  ).json()) as { order: string; pay_at: string };
  expect(checkout).toMatchObject({ order: 'order_1', pay_at: expect.stringContaining('/pay/') });

  // 3. The payer: the hosted page, an HTML form post with the test card.
  const paid = await payPage(suite.platform, pathOf(checkout.pay_at), CARDS.ok);
  expect([200, 303]).toContain(paid.status);

  // 4. The event reaches the shop through listen, verified and typed.
  const order = await eventually(async () => {
    const current = (await (await fetch(`${shop.url}/orders/order_1`)).json()) as Order;
    return current.status === 'paid' ? current : undefined;
  });
  expect(order).toMatchObject({
    amount: 4200,
    currency: 'EUR',
    status: 'paid',
    transaction: expect.stringMatching(/^txn_/),
  });
  const transaction = await suite.api('GET', `/v1/transactions/${order.transaction}`);
  expect(transaction.body).toMatchObject({
    status: 'succeeded',
    payment_link: order.payment_link,
    amount: 4200,
  });
  await eventually(async () => /payment\.succeeded\s+evt_\w+\s+-> 200/.test(output.join('')) || undefined);

  // 5. A delivery signed with another secret is refused, and changes nothing.
  const forged = JSON.stringify({ id: 'evt_forged000000', type: 'payment.succeeded', data: { object: {} } });
  const refused = await fetch(`${shop.url}/hooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...sign(forged, 'whsec_' + Buffer.alloc(32, 1).toString('base64'), 'evt_forged000000'),
    },
    body: forged,
  });
  expect(refused.status).toBe(400);
  expect(await stopListener()).toBe(0);
});
