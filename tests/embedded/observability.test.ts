// Metrics and access logs (issue 18 items 1 and 3) on the embedded default: after a small
// scenario, GET /metrics on the metrics port has the documented series with plausible values,
// labelled by route template (never an id), and the gateway wrote one JSON access-log line per
// request naming the account and key, with no secret in it.

import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { startEmbedded, type Embedded } from '@paygrid/embedded';
import pino from 'pino';
import { eventually } from '../support/platform';
import { startWebhookReceiver } from '../support/webhook-receiver';

let embedded: Embedded;
const lines: Record<string, unknown>[] = [];
let metricsUrl: string;
let metricsServer: Server;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    logger: pino({ level: 'info', base: { service: 'test' } }, sink),
  });
  metricsServer = await embedded.metrics.listen(0, '127.0.0.1');
  const address = metricsServer.address();
  if (!address || typeof address === 'string') throw new Error('no metrics port');
  metricsUrl = `http://127.0.0.1:${address.port}/metrics`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve()));
  await embedded?.stop();
});

/** The sum of the series of `name` whose labels include `labels` (undefined: none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let total: number | undefined;
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = match[2] ?? '';
    if (Object.entries(labels).every(([k, v]) => present.includes(`${k}="${v}"`)))
      total = (total ?? 0) + Number(match[3]);
  }
  return total;
}

it('counts and times requests by route template, and reads the queue gauges', async () => {
  const key = embedded.demo?.secret_key as string;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const created = await fetch(`${embedded.url}/v1/merchants`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ business_name: 'Metrics Ltd' }),
  }).then((r) => r.json() as Promise<{ id: string }>);
  for (let i = 0; i < 3; i++) {
    expect((await fetch(`${embedded.url}/v1/merchants/${created.id}`, { headers })).status).toBe(200);
  }
  expect((await fetch(`${embedded.url}/v1/merchants/mer_doesnotexist0000000000`, { headers })).status).toBe(
    404,
  );

  const response = await fetch(metricsUrl);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  const text = await response.text();

  // The service's own route template: three 200s and one 404 on /v1/merchants/:id.
  expect(
    sample(text, 'paygrid_http_requests_total', {
      service: 'payments',
      route: '/v1/merchants/:id',
      status: '200',
    }),
  ).toBe(3);
  expect(
    sample(text, 'paygrid_http_requests_total', {
      service: 'payments',
      route: '/v1/merchants/:id',
      status: '404',
    }),
  ).toBe(1);
  // The gateway labels its catch-all by the API prefix.
  expect(
    sample(text, 'paygrid_http_requests_total', {
      service: 'gateway',
      route: '/v1/merchants',
      method: 'GET',
    }),
  ).toBe(4);
  const count = sample(text, 'paygrid_http_request_duration_seconds_count', {
    service: 'gateway',
    route: '/v1/merchants',
    status: '200',
    method: 'GET',
  });
  const sum = sample(text, 'paygrid_http_request_duration_seconds_sum', {
    service: 'gateway',
    route: '/v1/merchants',
    status: '200',
    method: 'GET',
  });
  expect(count).toBe(3);
  expect(sum).toBeGreaterThan(0);
  expect(sum).toBeLessThan(30);
  // No id ever becomes a label.
  expect(text).not.toContain(created.id);
  expect(text).not.toContain('mer_doesnotexist');

  expect(sample(text, 'paygrid_outbox_backlog', { service: 'payments' })).toBeGreaterThanOrEqual(0);
  expect(sample(text, 'paygrid_outbox_oldest_age_seconds', { service: 'payments' })).toBeGreaterThanOrEqual(
    0,
  );
  expect(sample(text, 'paygrid_webhook_queue_depth')).toBeGreaterThanOrEqual(0);
  expect(sample(text, 'paygrid_webhook_endpoints_disabled')).toBe(0);
  // prom-client's process metrics: event-loop delay and CPU.
  expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
});

it('counts webhook attempts, rate-limit rejections and reads the pool, billing and mail gauges', async () => {
  const key = embedded.demo?.secret_key as string;
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const receiver = await startWebhookReceiver();
  try {
    const endpoint = await fetch(`${embedded.url}/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: receiver.url, enabled_events: ['*'] }),
    });
    expect(endpoint.status).toBe(200);
    await fetch(`${embedded.url}/v1/merchants`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        business_name: 'Hooked Metrics Ltd',
        email: 'ops@hooked.test',
        country: 'DE',
        default_currency: 'EUR',
        business_type: 'company',
      }),
    });
    await eventually(async () => (receiver.received.length >= 1 ? true : undefined), 20_000);
    // An account limited to 1 request per second (burst 1): of 10 requests sent at once, the
    // first is served and the others are refused until the bucket refills.
    const admin = (path: string, body: unknown) =>
      fetch(`${embedded.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${embedded.operatorToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<any>);
    const limited = await admin('/admin/v1/accounts', { name: 'Limited', groupings: ['payments'] });
    await admin(`/admin/v1/accounts/${limited.id}`, { rate_limit_per_second: 1 });
    const limitedKey = (
      await admin(`/admin/v1/accounts/${limited.id}/keys`, { mode: 'test', kind: 'secret' })
    ).secret;
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () =>
        fetch(`${embedded.url}/v1/merchants?limit=1`, {
          headers: { authorization: `Bearer ${limitedKey}` },
        }).then((r) => r.status),
      ),
    );
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBeGreaterThan(0);

    const text = await eventually(async () => {
      const scraped = await (await fetch(metricsUrl)).text();
      // The billing engine runs every second: wait for its first timed run. A delivery is
      // counted after the receiver has answered it, so the counter can trail the receiver for a
      // moment (a second event, account.updated, may still be in flight): wait until they agree.
      return (sample(scraped, 'paygrid_billing_run_duration_seconds_count') ?? 0) > 0 &&
        sample(scraped, 'paygrid_webhook_attempts_total', { mode: 'test', outcome: 'succeeded' }) ===
          receiver.received.length
        ? scraped
        : undefined;
    }, 20_000);
    expect(sample(text, 'paygrid_webhook_attempts_total', { mode: 'test', outcome: 'succeeded' })).toBe(
      receiver.received.length,
    );
    expect(sample(text, 'paygrid_webhook_attempts_total', { outcome: 'failed_status' })).toBeUndefined();
    const latency = sample(text, 'paygrid_webhook_delivery_duration_seconds_sum', { mode: 'test' }) as number;
    expect(latency).toBeGreaterThan(0);
    expect(latency).toBeLessThan(15 * receiver.received.length);
    expect(sample(text, 'paygrid_rate_limit_rejections_total', { limit: 'key' })).toBe(refused);
    // Loopback callers are exempt from the failed-authentication limit.
    expect(sample(text, 'paygrid_rate_limit_rejections_total', { limit: 'failed_auth' })).toBe(0);
    // The inbox consumers start at 0 retries (the series exists before the first failure).
    expect(sample(text, 'paygrid_inbox_retries_total', { service: 'invoicing' })).toBe(0);
    expect(sample(text, 'paygrid_inbox_retries_total', { service: 'webhooks' })).toBe(0);
    for (const service of ['gateway', 'payments', 'invoicing', 'webhooks']) {
      const total = sample(text, 'paygrid_db_pool_connections', { service, state: 'total' }) as number;
      expect({ service, total: total >= 1 && total <= 4 }).toEqual({ service, total: true });
      expect(
        sample(text, 'paygrid_db_pool_connections', { service, state: 'waiting' }),
      ).toBeGreaterThanOrEqual(0);
    }
    expect(sample(text, 'paygrid_billing_due_backlog')).toBe(0);
    const runs = sample(text, 'paygrid_billing_run_duration_seconds_sum') as number;
    expect(runs).toBeGreaterThan(0);
    expect(runs).toBeLessThan(60);
    // No SMTP in this run: mails are written as files at once, so nothing waits.
    expect(sample(text, 'paygrid_mail_queue', { state: 'pending' })).toBe(0);
    expect(sample(text, 'paygrid_mail_queue', { state: 'failed' })).toBe(0);
    // Kafka lag exists only on Kafka (tests/distributed/metrics.test.ts).
    expect(sample(text, 'paygrid_kafka_consumer_lag')).toBeUndefined();
  } finally {
    await receiver.stop();
  }
});

it('writes one access-log line per request, with the caller and no secret', async () => {
  const key = embedded.demo?.secret_key as string;
  const before = lines.length;
  const answer = await fetch(`${embedded.url}/v1/merchants?limit=2`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const requestId = answer.headers.get('request-id');
  const access = lines.slice(before).filter((l) => l.access === true);
  expect(access).toHaveLength(1);
  expect(access[0]).toMatchObject({
    method: 'GET',
    route: '/v1/merchants',
    status: 200,
    request_id: requestId,
    account_id: embedded.demo?.account,
    livemode: false,
    msg: 'request',
  });
  expect(access[0].key_id).toMatch(/^key_/);
  expect(access[0].latency_ms).toEqual(expect.any(Number));
  expect(JSON.stringify(access[0])).not.toContain(key);
});
