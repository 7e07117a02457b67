// A service restarted after kill -9 serves its HTTP API at once, without waiting for its
// Kafka consumer group (issue 8, chaos finding): the group still lists the dead member until
// that member's session times out, and the broker completes the new member's join only then.
// The killed instance runs with a long session (45 s) so that the wait is certain: the first
// request after the restarted process listens must answer while the dead member is still in
// the group. Events published while invoicing was down, and after, are consumed afterwards.

import { Kafka, logLevel, type Admin } from 'kafkajs';
import { CARDS, payPage } from '../support/pages';
import {
  eventually,
  startDistributedPlatform,
  type DistributedPlatform,
  type TestAccount,
} from '../support/platform';

let platform: DistributedPlatform;
let account: TestAccount;
let admin: Admin;
let groupId: string;

beforeAll(async () => {
  platform = await startDistributedPlatform({ KAFKA_SESSION_TIMEOUT_MS: '45000' });
  account = await platform.newAccount(['payments', 'invoicing']);
  groupId = `${platform.env.KAFKA_TOPIC_PREFIX}invoicing.payments-feed`;
  admin = new Kafka({
    clientId: 'restart-fast-test',
    brokers: String(process.env.KAFKA_BROKERS).split(','),
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
});

afterAll(async () => {
  await admin?.disconnect();
  await platform?.stop();
});

async function group() {
  const { groups } = await admin.describeGroups([groupId]);
  return { state: groups[0].state, members: groups[0].members.map((m) => m.memberId) };
}

/** Pays a new payment link on the hosted page; resolves to the payment's account-wide count. */
async function payLink(amount: number): Promise<void> {
  const link = await platform.api(account.testKey, 'POST', '/v1/payment-links', { amount, currency: 'EUR' });
  expect(link.status).toBe(200);
  const paid = await payPage(platform, `/pay/${link.body.id}`, CARDS.ok);
  // A link without after_completion answers the success page itself (redirects are not followed).
  expect(paid.status).toBe(200);
}

const recordedPayments = async (): Promise<number> => {
  const rows = await platform.sql(
    'invoicing',
    `select count(*)::int as n from invoicing.payment_facts where account_id = $1 and type = 'payment.succeeded'`,
    [account.id],
  );
  return Number(rows[0].n);
};

it('answers through the gateway on the first request after a kill -9 restart, and still consumes', async () => {
  // Before: the consumer has joined (one member, stable) and consumes a payment.
  await payLink(1000);
  await eventually(async () => ((await recordedPayments()) === 1 ? true : undefined), 60_000);
  const before = await eventually(async () => {
    const current = await group();
    return current.state === 'Stable' && current.members.length === 1 ? current : undefined;
  }, 60_000);
  const deadMember = before.members[0];

  await platform.kill('invoicing', 'SIGKILL');
  // Caused while invoicing is down: the event waits in Kafka.
  await payLink(2000);

  // start() resolves when the new process answers /ready on its own port.
  await platform.start('invoicing');
  const first = await platform.api(account.testKey, 'GET', '/v1/customers?limit=1');
  const created = await platform.api(account.testKey, 'POST', '/v1/customers', { name: 'After restart' });
  const during = await group();
  expect(first.status).toBe(200);
  expect(created.status).toBe(200);
  // The answers came while the broker still held the dead member: HTTP did not wait for the join.
  expect(during.members).toContain(deadMember);
  expect(during.state).not.toBe('Stable');

  // Consumption resumes once the dead member's session expires: the payment made while
  // invoicing was down and one made after the restart both reach the payments feed, once.
  await payLink(3000);
  await eventually(async () => ((await recordedPayments()) === 3 ? true : undefined), 120_000, 500);
  const after = await group();
  expect(after.members).not.toContain(deadMember);
  expect(await recordedPayments()).toBe(3);
}, 240_000);
