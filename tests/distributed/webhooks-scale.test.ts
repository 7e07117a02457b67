// Two webhooks instances share the delivery work (issue 7): both run the event-log consumer
// (one Kafka consumer group) and a delivery worker claiming from the same PostgreSQL queue
// with FOR UPDATE SKIP LOCKED and a 60 s lease. Checked here:
//   - every event is delivered to every subscribed endpoint;
//   - none is delivered twice. At-least-once allows a second delivery only when a claim is
//     lost before its attempt is recorded (the instance dies after the POST, or the POST
//     outlives the 60 s lease); neither happens in this run, so zero duplicates is required;
//   - per-object order per endpoint: each payment link's created + updated events arrive in
//     the order they were emitted, at each endpoint, although two instances deliver;
//   - both instances delivered (the receiver maps each connection to the process holding
//     its socket through /proc, so this suite needs Linux). The instance that consumed an
//     event wakes its own worker at once while the other polls every 200 ms, so with a fast
//     receiver one instance could deliver everything: here each instance has at most
//     MAX_IN_FLIGHT deliveries in flight (WEBHOOKS_MAX_IN_FLIGHT) and the receiver answers
//     after RECEIVER_DELAY_MS, so the queue outlasts what one instance may hold and the
//     other's polls claim the rest.

import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { AssignerProtocol, Kafka, logLevel } from 'kafkajs';
import { Webhook } from 'standardwebhooks';
import {
  eventually,
  startDistributedPlatform,
  type DistributedPlatform,
  type ExtraInstance,
  type TestAccount,
} from '../support/platform';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

const LINKS = 12;
const UPDATES = 4; // events per link: created + 4 updated
const EVENTS = LINKS * (1 + UPDATES);
const MAX_IN_FLIGHT = '3';
const RECEIVER_DELAY_MS = 100;

let platform: DistributedPlatform;
let second: ExtraInstance;
let account: TestAccount;
let receiver: WebhookReceiver<{ pid: number | undefined }>;
let receiverPort: number;
let received: WebhookReceiver<{ pid: number | undefined }>['received'] = [];
let webhookPids: number[] = [];

/** Which of `pids` holds the TCP socket whose local port is `port` (connected to us). */
function ownerOf(port: number, pids: number[]): number | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const peer = receiverPort.toString(16).toUpperCase().padStart(4, '0');
  let inode: string | undefined;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      if (cols[1].endsWith(`:${hex}`) && cols[2].endsWith(`:${peer}`)) inode = cols[9];
    }
  }
  if (!inode) return undefined;
  for (const pid of pids) {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

/**
 * Waits until both instances hold partitions of the event log's consumer group, so that both
 * consume events, not only deliver them. An instance answers /ready before its consumer has
 * joined, and the first one keeps every partition until its next heartbeat (3 s) starts the
 * rebalance. This wait alone did not make the last check below reliable (it failed once in
 * three runs on a loaded machine); the in-flight cap and the slow receiver above do that.
 */
async function bothConsume(): Promise<void> {
  const admin = new Kafka({
    clientId: 'webhooks-scale-test',
    brokers: String(process.env.KAFKA_BROKERS).split(','),
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    await eventually(
      async () => {
        const { groups } = await admin.describeGroups([`${platform.topicPrefix}webhooks.event-log`]);
        const [group] = groups;
        const assigned = group.members.filter((member) => {
          const assignment = AssignerProtocol.MemberAssignment.decode(member.memberAssignment);
          return Object.values(assignment?.assignment ?? {}).some((partitions) => partitions.length > 0);
        });
        return group.state === 'Stable' && assigned.length === 2 ? true : undefined;
      },
      60_000,
      250,
    );
  } finally {
    await admin.disconnect();
  }
}

beforeAll(async () => {
  receiver = await startWebhookReceiver({
    // While the request is open its connection exists: find the process that sent it.
    annotate: (req) => ({ pid: ownerOf(req.socket.remotePort as number, webhookPids) }),
    delayMs: RECEIVER_DELAY_MS,
  });
  received = receiver.received;
  receiverPort = receiver.port;
  platform = await startDistributedPlatform(
    {},
    { serviceEnv: { webhooks: { WEBHOOKS_MAX_IN_FLIGHT: MAX_IN_FLIGHT } } },
  );
  second = await platform.startExtra('webhooks', { WEBHOOKS_MAX_IN_FLIGHT: MAX_IN_FLIGHT });
  webhookPids = [platform.pid('webhooks') as number, second.pid];
  await bothConsume();
  account = await platform.newAccount(['payments']);
  // The events are caused 12 requests at a time: above the default per-key rate limit.
  const limit = await platform.admin('POST', `/admin/v1/accounts/${account.id}`, {
    rate_limit_per_second: 1000,
  });
  expect(limit.status).toBe(200);
});

afterAll(async () => {
  await second?.stop();
  await platform?.stop();
  await receiver?.stop();
});

it('shares deliveries between two instances: all delivered, none twice, per-object order kept', async () => {
  const endpoints: { id: string; secret: string; path: string }[] = [];
  for (const path of ['/a', '/b']) {
    const created = await platform.api(account.testKey, 'POST', '/v1/webhooks', {
      url: `http://127.0.0.1:${receiverPort}${path}`,
      enabled_events: ['payment_link.created', 'payment_link.updated'],
    });
    expect(created.status).toBe(200);
    endpoints.push({ id: created.body.id, secret: created.body.secret, path });
  }

  // The links in parallel, each link's events in sequence (created, then 4 updates).
  const links = await Promise.all(
    Array.from({ length: LINKS }, async (_, i) => {
      const link = await platform.api(account.testKey, 'POST', '/v1/payment-links', {
        amount: 500 + i,
        currency: 'EUR',
      });
      expect(link.status).toBe(200);
      for (let u = 0; u < UPDATES; u++) {
        const updated = await platform.api(account.testKey, 'POST', `/v1/payment-links/${link.body.id}`, {
          metadata: { step: String(u) },
        });
        expect(updated.status).toBe(200);
      }
      return link.body.id as string;
    }),
  );

  await eventually(async () => (received.length >= 2 * EVENTS ? true : undefined), 90_000, 100);
  // A short grace period for any late duplicate.
  await new Promise((r) => setTimeout(r, 1_500));

  // The events as emitted, from the event log: per link, in emission order (sortable ids).
  const logged = await platform.sql<{ id: string; object: string }>(
    'webhooks',
    `select id, payload->'data'->'object'->>'id' as object from webhooks.events
     where account_id = $1 and type like 'payment_link.%' order by id`,
    [account.id],
  );
  expect(logged).toHaveLength(EVENTS);
  expect(new Set(logged.map((e) => e.object))).toEqual(new Set(links));

  for (const endpoint of endpoints) {
    const mine = received.filter((r) => r.path === endpoint.path);
    // Every event once: no loss, no duplicate.
    expect(mine).toHaveLength(EVENTS);
    expect(new Set(mine.map((r) => r.id))).toEqual(new Set(logged.map((e) => e.id)));
    const verifier = new Webhook(endpoint.secret);
    for (const r of mine) expect((verifier.verify(r.body, r.headers) as any).id).toBe(r.id);
    // Per-object order: arrival order equals emission order for each link.
    for (const link of links) {
      const emitted = logged.filter((e) => e.object === link).map((e) => e.id);
      const arrived = mine.filter((r) => emitted.includes(r.id)).map((r) => r.id);
      expect({ link, arrived }).toEqual({ link, arrived: emitted });
    }
  }

  // Both instances did part of the work.
  const byPid = new Map<number | undefined, number>();
  for (const r of received) byPid.set(r.pid, (byPid.get(r.pid) ?? 0) + 1);
  expect(byPid.get(undefined) ?? 0).toBe(0);
  for (const pid of webhookPids) expect({ pid, deliveries: byPid.get(pid) ?? 0 }).toMatchObject({ pid });
  expect(webhookPids.every((pid) => (byPid.get(pid) ?? 0) > 0)).toBe(true);
}, 180_000);
