// Metrics of the distributed processes (issue 18 item 1): each process serves its own
// /metrics on its METRICS_PORT; after a payment's events went over real Kafka, the services
// report their consumer groups' lag per topic and partition (0 once they caught up), and every
// process its database pool. And every series the committed dashboard and alert rules query
// is one these processes export.

import {
  eventually,
  freePort,
  ROOT,
  startDistributedPlatform,
  type DistributedPlatform,
} from '../support/platform';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

let platform: DistributedPlatform;
let receiver: WebhookReceiver;
const metricsPorts: Record<string, number> = {};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  for (const service of ['gateway', 'payments', 'invoicing', 'webhooks'])
    metricsPorts[service] = await freePort();
  platform = await startDistributedPlatform(
    {},
    {
      serviceEnv: Object.fromEntries(
        Object.entries(metricsPorts).map(([service, port]) => [service, { METRICS_PORT: String(port) }]),
      ),
    },
  );
});

afterAll(async () => {
  await platform?.stop();
  await receiver?.stop();
});

interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** Every sample of `name` in the exposition text. */
function samples(text: string, name: string): Sample[] {
  const found: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    found.push({ labels, value: Number(match[3]) });
  }
  return found;
}

const scrape = async (service: string) =>
  (await fetch(`http://127.0.0.1:${metricsPorts[service]}/metrics`)).text();

it('reports the Kafka consumer lag of each group per topic and partition, and the pool of each process', async () => {
  const account = await platform.newAccount(['payments', 'invoicing']);
  const endpoint = await platform.api(account.testKey, 'POST', '/v1/webhooks', {
    url: receiver.url,
    enabled_events: ['*'],
  });
  expect(endpoint.status).toBe(200);
  const merchant = await platform.api(account.testKey, 'POST', '/v1/merchants', {
    business_name: 'Lagging Ltd',
    email: 'ops@lagging.test',
    country: 'DE',
    default_currency: 'EUR',
    business_type: 'company',
  });
  expect(merchant.status).toBe(200);
  // The event reached the webhooks event log through Kafka.
  await eventually(async () => {
    const events = await platform.api(account.testKey, 'GET', '/v1/events?type=merchant.onboarding.updated');
    return events.body.data?.length ? true : undefined;
  }, 30_000);

  // Each service's groups, every partition of each topic it consumes (4 by default), caught up.
  const expected: Record<string, string[]> = {
    // invoicing.events.v1: the account-profiles and customer-directory projections.
    payments: ['invoicing.events.v1', 'payments.commands.v1'],
    invoicing: ['payments.events.v1'],
    webhooks: ['invoicing.events.v1', 'payments.events.v1', 'webhooks.events.v1'],
  };
  for (const [service, topics] of Object.entries(expected)) {
    const lag = await eventually(async () => {
      const rows = samples(await scrape(service), 'paygrid_kafka_consumer_lag');
      const seen = [...new Set(rows.map((r) => r.labels.topic))].sort();
      if (JSON.stringify(seen) === JSON.stringify(topics) && rows.every((r) => r.value === 0)) return rows;
      throw new Error(`${service}: ${JSON.stringify(rows)}`);
    }, 30_000);
    // Every group of the service reports every partition of each topic it reads.
    const groups = [...new Set(lag.map((r) => `${r.labels.group} ${r.labels.topic}`))];
    for (const group of groups) {
      const partitions = lag
        .filter((r) => `${r.labels.group} ${r.labels.topic}` === group)
        .map((r) => Number(r.labels.partition));
      expect({ service, group, partitions: partitions.sort() }).toEqual({
        service,
        group,
        partitions: [0, 1, 2, 3],
      });
    }
    // Group names carry no topic prefix of the run (bounded across deployments).
    expect(lag.every((r) => r.labels.group && !r.labels.group.startsWith(platform.topicPrefix))).toBe(true);
  }
  // The gateway consumes nothing: no lag series.
  const gateway = await scrape('gateway');
  expect(samples(gateway, 'paygrid_kafka_consumer_lag')).toEqual([]);
  for (const service of ['gateway', 'payments', 'invoicing', 'webhooks']) {
    const text = service === 'gateway' ? gateway : await scrape(service);
    const total = samples(text, 'paygrid_db_pool_connections').find((s) => s.labels.state === 'total');
    expect({ service, ok: total !== undefined && total.value >= 1 && total.value <= 20 }).toEqual({
      service,
      ok: true,
    });
  }
});

it('exports every series the Grafana dashboard and the alert rules query', async () => {
  // After the scenario above: a webhook was delivered, the billing engine ran, Kafka carried events.
  await eventually(async () => (receiver.received.length > 0 ? true : undefined), 30_000);
  const exported = new Set<string>();
  for (const service of ['gateway', 'payments', 'invoicing', 'webhooks']) {
    for (const line of (await scrape(service)).split('\n')) {
      const match = /^([a-z_0-9]+)[{ ]/.exec(line);
      if (match) exported.add(match[1]);
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { expressions, seriesOf } = require('../../scripts/lib/observability-names.cjs');
  const { found } = expressions(ROOT);
  const missing = found.flatMap(({ where, expr }: { where: string; expr: string }) =>
    seriesOf(expr)
      .filter((series: string) => !exported.has(series))
      .map((series: string) => `${where}: ${series}`),
  );
  expect(found.length).toBeGreaterThan(20);
  expect(missing).toEqual([]);
});
