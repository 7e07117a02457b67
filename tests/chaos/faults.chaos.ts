// The reliability suite (npm run test:chaos; scripts/chaos.mjs gives it its own PostgreSQL,
// Redis and Kafka). The distributed platform (four processes) runs a steady mixed load:
// payments through the hosted checkout, refunds (several at once on one payment), POSTs
// replayed with their Idempotency-Key (twice at once, then again), customers and payment
// links, reads; webhook endpoints: a healthy receiver, one that always hangs, one that hangs
// during its phase. In turn: kill -9 each app and restart it, restart PostgreSQL, restart
// Kafka, make a receiver hang. Then the invariants of ./invariants.ts are checked with SQL
// and the API, and what was checked is printed, with the load's counts per fault.

import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import {
  ROOT,
  startDistributedPlatform,
  type DistributedPlatform,
  type ServiceName,
  type TestAccount,
} from '../support/platform';
import { checkInvariants, formatResults, type Observed } from './invariants';

const LOAD_AFTER_FAULT_MS = Number(process.env.CHAOS_PHASE_MS ?? 8_000);
const SETTLE_MS = Number(process.env.CHAOS_SETTLE_MS ?? 120_000);
const WORKERS = Number(process.env.CHAOS_WORKERS ?? 2);
const REQUEST_TIMEOUT_MS = 20_000;

interface PhaseStats {
  name: string;
  requests: number;
  ok: number;
  /** 4xx the load expects (a refund beyond what remains, a key still in progress, a declined card). */
  refused: number;
  /** 5xx and no answer: what the fault costs clients. */
  errors: number;
  ms: number;
}

const phases: PhaseStats[] = [];
let phase: PhaseStats;
let platform: DistributedPlatform;
let account: TestAccount;
let stopping = false;
/** The database's time once the endpoints exist: events logged later are owed to them. */
let healthySince: Date;
const idempotencyKeys: string[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)];

// ---------------------------------------------------------------------------------------
// Webhook receivers
// ---------------------------------------------------------------------------------------

class Receiver {
  readonly ids: string[] = [];
  hanging = false;
  private server!: Server;
  private readonly parked = new Set<ServerResponse>();
  url = '';

  constructor(private readonly alwaysHang = false) {}

  async start(): Promise<void> {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      request.resume();
      request.on('end', () => {
        if (this.alwaysHang || this.hanging) {
          this.parked.add(response);
          response.on('close', () => this.parked.delete(response));
          return;
        }
        const id = request.headers['webhook-id'];
        if (typeof id === 'string') this.ids.push(id);
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  }

  release(): void {
    for (const response of this.parked) response.destroy();
    this.parked.clear();
  }

  async stop(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const healthy = new Receiver();
const alwaysHangs = new Receiver(true);
const sometimesHangs = new Receiver();

// ---------------------------------------------------------------------------------------
// Load
// ---------------------------------------------------------------------------------------

interface Answer {
  status: number;
  body: any;
  text: string;
}

/** One request, counted in the current phase. `expected` 4xx codes count as refused, not errors. */
async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  form?: URLSearchParams,
): Promise<Answer> {
  const counted = phase;
  counted.requests++;
  try {
    const response = await fetch(`${platform.url}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(path.startsWith('/v1/') ? { authorization: `Bearer ${account.testKey}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      body: form ?? (body !== undefined ? JSON.stringify(body) : undefined),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (response.status >= 500) counted.errors++;
    else if (response.status >= 400) counted.refused++;
    else counted.ok++;
    return { status: response.status, body: parsed, text };
  } catch (error) {
    counted.errors++;
    return { status: 0, body: undefined, text: String(error) };
  }
}

/** A keyed POST retried like a careful client: same key, same body, until a final answer. */
async function keyed(path: string, body: Record<string, unknown>, key: string): Promise<Answer> {
  let answer: Answer = { status: 0, body: undefined, text: '' };
  for (let attempt = 0; attempt < 20 && !stopping; attempt++) {
    answer = await call('POST', path, body, { 'idempotency-key': key });
    if (answer.status !== 0 && answer.status < 500 && answer.status !== 409) return answer;
    await sleep(250 + attempt * 250);
  }
  return answer;
}

/**
 * A payer's checkout: a new one-time link (the merchant's API call), its hosted page, and the
 * form posted, one time in five twice at once with the same token (a double click).
 */
async function checkoutPayment(): Promise<void> {
  const link = await call('POST', '/v1/payment-links', {
    amount: 500 + Math.floor(Math.random() * 100_000),
    currency: pick(['USD', 'EUR', 'JPY', 'KWD']),
    description: 'chaos checkout',
  });
  if (link.status !== 200) return;
  const page = await call('GET', `/pay/${link.body.id}`);
  const token = /name="csrf_token" value="([^"]+)"/.exec(page.text)?.[1];
  if (!token) return;
  const form = new URLSearchParams({
    csrf_token: token,
    card_number: Math.random() < 0.85 ? '4242 4242 4242 4242' : '4000 0000 0000 0002',
    exp_month: '12',
    exp_year: '2030',
    cvc: '123',
  });
  const submissions = Math.random() < 0.2 ? 2 : 1;
  await Promise.all(
    Array.from({ length: submissions }, () => call('POST', `/pay/${link.body.id}`, undefined, {}, form)),
  );
}

async function refunds(): Promise<void> {
  const list = await call('GET', '/v1/transactions?type=payment&status=succeeded&limit=20');
  const payments = (list.body?.data ?? []).filter((t: any) => t.refundable_amount > 0);
  if (!payments.length) return;
  const payment: { id: string; refundable_amount: number } = pick(payments);
  // Three at once, together worth more than what remains: some must be refused.
  const requests = [0, 1, 2].map(() => {
    const key = `chaos-${randomUUID()}`;
    idempotencyKeys.push(key);
    const body = {
      transaction: payment.id,
      amount: Math.max(1, Math.floor((payment.refundable_amount * (0.3 + Math.random() * 0.5)) | 0)),
      metadata: { chaos_idem: key },
    };
    return { key, body };
  });
  await Promise.all(requests.map((r) => keyed('/v1/refunds', r.body, r.key)));
  // A replay of the first with its key: answered from the record, never applied again.
  await keyed('/v1/refunds', requests[0].body, requests[0].key);
}

async function idempotentCreates(): Promise<void> {
  for (const [path, make] of [
    ['/v1/customers', (key: string) => ({ name: `Chaos ${key.slice(-6)}`, metadata: { chaos_idem: key } })],
    [
      '/v1/payment-links',
      (key: string) => ({
        amount: 700,
        currency: 'EUR',
        description: 'chaos',
        metadata: { chaos_idem: key },
      }),
    ],
  ] as const) {
    const key = `chaos-${randomUUID()}`;
    idempotencyKeys.push(key);
    const body = make(key);
    // Twice at once, then once more: one object.
    await Promise.all([keyed(path, body, key), keyed(path, body, key)]);
    await keyed(path, body, key);
  }
}

/** One customer per worker run, made on first need (invoices need an e-mail address to be sent). */
let invoiceCustomer: Promise<string | undefined> | undefined;

/**
 * Invoices, for the gapless-number invariant under faults: a keyed create-and-send (twice at
 * once with one key, then again), and a draft finalized by two requests at once.
 */
async function invoices(): Promise<void> {
  invoiceCustomer ??= call('POST', '/v1/customers', {
    name: 'Chaos invoices',
    email: 'ap@chaos.test',
    currency: 'EUR',
  }).then((c) => (c.status === 200 ? (c.body.id as string) : undefined));
  const customer = await invoiceCustomer;
  if (!customer) {
    invoiceCustomer = undefined;
    return;
  }
  const lines = [
    {
      description: 'Chaos work',
      quantity: 1 + Math.floor(Math.random() * 5),
      unit_amount: 1_250,
      tax_rate_bps: 2000,
    },
  ];
  const key = `chaos-${randomUUID()}`;
  idempotencyKeys.push(key);
  const body = { customer, lines, metadata: { chaos_idem: key } };
  await Promise.all([keyed('/v1/invoices', body, key), keyed('/v1/invoices', body, key)]);
  await keyed('/v1/invoices', body, key);
  const draft = await call('POST', '/v1/invoices', { customer, lines, send: false });
  if (draft.status !== 200) return;
  await Promise.all([0, 1].map(() => call('POST', `/v1/invoices/${draft.body.id}/finalize`)));
}

async function reads(): Promise<void> {
  await call('GET', '/v1/events?limit=5');
  await call('GET', '/v1/refunds?limit=5');
}

async function worker(): Promise<void> {
  const steps = [checkoutPayment, checkoutPayment, refunds, idempotentCreates, invoices, reads];
  while (!stopping) {
    await pick(steps)();
    await sleep(20);
  }
}

// ---------------------------------------------------------------------------------------
// Faults
// ---------------------------------------------------------------------------------------

function infra(command: string): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'chaos-infra.mjs'), command], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function killAndRestart(service: ServiceName): Promise<void> {
  await platform.kill(service, 'SIGKILL');
  await sleep(1_000);
  await platform.start(service);
}

const FAULTS: [string, () => Promise<void>][] = [
  ['baseline (no fault)', async () => {}],
  ...(['gateway', 'payments', 'invoicing', 'webhooks'] as ServiceName[]).map(
    (service) =>
      [`kill -9 ${service}, restart`, () => killAndRestart(service)] as [string, () => Promise<void>],
  ),
  ['restart PostgreSQL (pg_ctl restart -m fast)', async () => infra('restart-postgres')],
  ['restart Kafka (controlled stop, start)', async () => infra('restart-kafka')],
  [
    'a webhook receiver hangs for the phase',
    async () => {
      sometimesHangs.hanging = true;
      await sleep(LOAD_AFTER_FAULT_MS);
      sometimesHangs.hanging = false;
      sometimesHangs.release();
    },
  ],
];

async function allEvents(): Promise<string[]> {
  const ids: string[] = [];
  let after = '';
  for (;;) {
    const page = await platform.api(account.testKey, 'GET', `/v1/events?limit=100${after}`);
    if (page.status !== 200) throw new Error(`GET /v1/events: ${page.status} ${JSON.stringify(page.body)}`);
    ids.push(...page.body.data.map((e: any) => e.id));
    if (!page.body.has_more) return ids;
    after = `&starting_after=${page.body.data.at(-1).id}`;
  }
}

async function unpublished(): Promise<number> {
  const schemas = await platform.sql<{ schema: string }>(
    'payments',
    `select table_schema as schema from information_schema.tables where table_name = 'outbox'`,
  );
  let n = 0;
  for (const { schema } of schemas) {
    const [row] = await platform.sql(
      'payments',
      `select count(*)::int as n from ${schema}.outbox where published_at is null`,
    );
    n += row.n;
  }
  return n;
}

beforeAll(async () => {
  platform = await startDistributedPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
  const raised = await platform.admin('POST', `/admin/v1/accounts/${account.id}`, {
    rate_limit_per_second: 100_000,
  });
  expect(raised.status).toBe(200);
  for (const receiver of [healthy, alwaysHangs, sometimesHangs]) {
    await receiver.start();
    const endpoint = await platform.api(account.testKey, 'POST', '/v1/webhooks', {
      url: receiver.url,
      enabled_events: ['*'],
    });
    expect(endpoint.status).toBe(200);
  }
  [{ now: healthySince }] = await platform.sql('payments', 'select now() as now');
}, 300_000);

afterAll(async () => {
  stopping = true;
  await platform?.stop();
  for (const receiver of [healthy, alwaysHangs, sometimesHangs]) await receiver.stop().catch(() => undefined);
});

it('keeps every invariant through process kills, a PostgreSQL restart, a Kafka restart and a hanging receiver', async () => {
  phase = { name: 'warm-up', requests: 0, ok: 0, refused: 0, errors: 0, ms: 0 };
  const load = Array.from({ length: WORKERS }, () => worker());
  for (const [name, fault] of FAULTS) {
    const started = Date.now();
    phase = { name, requests: 0, ok: 0, refused: 0, errors: 0, ms: 0 };
    phases.push(phase);
    await sleep(2_000);
    await fault();
    await sleep(LOAD_AFTER_FAULT_MS);
    phase.ms = Date.now() - started;
    process.stderr.write(
      `chaos: ${name}: ${phase.requests} requests, ${phase.ok} ok, ${phase.refused} refused (4xx), ${phase.errors} errors (5xx/no answer) in ${phase.ms} ms\n`,
    );
  }
  stopping = true;
  phase = { name: 'drain', requests: 0, ok: 0, refused: 0, errors: 0, ms: 0 };
  await Promise.all(load);

  // Settle: every outbox row published, every logged event delivered to the healthy receiver.
  const settleStarted = Date.now();
  let observed: Observed | undefined;
  let results = await (async () => {
    for (;;) {
      const listed = await allEvents();
      observed = {
        accounts: [account.id],
        listedEventIds: listed,
        healthyDeliveries: [...healthy.ids],
        healthyEnabledEvents: ['*'],
        healthySince,
        idempotencyKeys,
      };
      const checked = await checkInvariants(
        (text, params) => platform.sql('payments', text, params),
        observed,
      );
      const pendingOutbox = await unpublished();
      if (
        (checked.every((r) => !r.violations.length) && pendingOutbox === 0) ||
        Date.now() - settleStarted > SETTLE_MS
      )
        return checked;
      await sleep(2_000);
    }
  })();
  const settledMs = Date.now() - settleStarted;
  results = results ?? [];

  const [counts] = await platform.sql(
    'payments',
    `select (select count(*) from payments.transactions where type = 'payment' and status = 'succeeded')::int as payments_succeeded,
            (select count(*) from payments.transactions where type = 'payment' and status = 'pending')::int as payments_pending,
            (select count(*) from payments.refunds where status = 'succeeded')::int as refunds_succeeded,
            (select count(*) from payments.refunds where status = 'pending')::int as refunds_pending,
            (select count(*) from payments.ledger_entries)::int as ledger_entries,
            (select count(*) from invoicing.customers)::int as customers,
            (select count(*) from invoicing.invoices where number is not null)::int as invoices_numbered,
            (select count(*) from webhooks.events)::int as events,
            (select count(*) from webhooks.deliveries where status = 'succeeded')::int as deliveries_succeeded`,
  );
  const table = phases
    .map(
      (p) =>
        `  ${p.name.padEnd(46)} ${String(p.requests).padStart(6)} requests ${String(p.ok).padStart(6)} ok ${String(p.refused).padStart(5)} refused ${String(p.errors).padStart(5)} errors  ${(p.ms / 1000).toFixed(1)} s`,
    )
    .join('\n');
  console.log(
    `chaos run\nload per fault:\n${table}\n` +
      `data: ${JSON.stringify(counts)}; healthy receiver got ${healthy.ids.length} deliveries (${new Set(healthy.ids).size} distinct), ` +
      `${observed?.listedEventIds.length} events listed, ${idempotencyKeys.length} Idempotency-Keys sent; settled in ${settledMs} ms\n` +
      `invariants:\n${formatResults(results)}`,
  );

  // Honest load: every phase carried traffic, and the platform served some of it.
  for (const p of phases) {
    expect({ phase: p.name, carried: p.requests > 10, served: p.ok > 0 }).toEqual({
      phase: p.name,
      carried: true,
      served: true,
    });
  }
  expect(counts.payments_succeeded).toBeGreaterThan(0);
  expect(counts.refunds_succeeded).toBeGreaterThan(0);
  expect(
    results.filter((r) => r.violations.length).map((r) => `${r.name}: ${r.violations.join('; ')}`),
  ).toEqual([]);
  expect(results.filter((r) => !r.skipped).every((r) => r.checked > 0)).toBe(true);
}, 1_200_000);
