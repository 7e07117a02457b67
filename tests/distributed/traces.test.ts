// Traces (issue 18 item 2): the four processes export their spans over OTLP/HTTP (JSON) to a
// receiver inside this test; one API call that emits an event is followed as one trace:
// the gateway's span -> the payments service's span (through the signed internal context) ->
// the relay's publish of the outbox row (its trace_context column) -> the webhooks
// consumer's span (the Kafka message's traceparent header, over real Kafka) -> the delivery
// to the endpoint (the delivery row's trace_context), whose POST carries the traceparent.
// The gateway's access-log line names the same trace.

import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  eventually,
  freePort,
  ROOT,
  startDistributedPlatform,
  type DistributedPlatform,
} from '../support/platform';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

const spans: CollectedSpan[] = [];
let collector: Server;
let collectorUrl: string;
let platform: DistributedPlatform;
let receiver: WebhookReceiver<{ traceparent?: string }>;

/** OTLP/JSON ids are hex; accept base64 too (protobuf-style JSON) and answer hex. */
const hex = (id: unknown) =>
  typeof id !== 'string' || id === ''
    ? ''
    : /^[0-9a-f]+$/i.test(id)
      ? id.toLowerCase()
      : Buffer.from(id, 'base64').toString('hex');

const attributesOf = (list: { key: string; value: Record<string, unknown> }[] = []) =>
  Object.fromEntries(list.map((a) => [a.key, Object.values(a.value)[0]]));

beforeAll(async () => {
  // A minimal OTLP/HTTP receiver: POST /v1/traces with an ExportTraceServiceRequest in JSON.
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const resourceSpans of body.resourceSpans ?? []) {
          const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                service,
                traceId: hex(span.traceId),
                spanId: hex(span.spanId),
                parentSpanId: hex(span.parentSpanId),
                name: span.name,
                kind: span.kind,
                attributes: attributesOf(span.attributes),
              });
            }
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  receiver = await startWebhookReceiver({
    annotate: (req) => ({ traceparent: req.headers.traceparent as string | undefined }),
  });
  platform = await startDistributedPlatform({
    OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  });
});

afterAll(async () => {
  await platform?.stop();
  await receiver?.stop();
  await new Promise<void>((resolve) => (collector ? collector.close(() => resolve()) : resolve()));
});

// SpanKind in OTLP: 1 internal, 2 server, 3 client, 4 producer, 5 consumer.
const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

it('follows one API call to its webhook delivery as one trace over real Kafka', async () => {
  const account = await platform.newAccount(['payments']);
  const endpoint = await platform.api(account.testKey, 'POST', '/v1/webhooks', {
    url: receiver.url,
    enabled_events: ['merchant.onboarding.updated'],
  });
  expect(endpoint.status).toBe(200);
  const merchant = await platform.api(account.testKey, 'POST', '/v1/merchants', {
    business_name: 'Traced Ltd',
    email: 'ops@traced.test',
    country: 'DE',
    default_currency: 'EUR',
    business_type: 'company',
  });
  expect(merchant.status).toBe(200);
  const requestId = merchant.headers.get('request-id');

  // The delivery reached the endpoint with a traceparent: 00-<trace id>-<span id>-01.
  const hook = await eventually(
    async () => receiver.received.find((r) => JSON.parse(r.body).data.object.id === merchant.body.id),
    30_000,
  );
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(hook.traceparent ?? '');
  expect(match).not.toBeNull();
  const [, traceId, deliverySpanId] = match as RegExpExecArray;

  // Every hop's span arrives (batched export, about a second after each span ends).
  const chain = await eventually(async () => {
    const trace = spans.filter((s) => s.traceId === traceId);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const delivery = byId.get(deliverySpanId);
    const consumer = delivery && byId.get(delivery.parentSpanId);
    const producer = consumer && byId.get(consumer.parentSpanId);
    const service = producer && byId.get(producer.parentSpanId);
    const gateway = service && byId.get(service.parentSpanId);
    return gateway ? { gateway, service, producer, consumer, delivery } : undefined;
  }, 30_000);

  expect(chain.gateway).toMatchObject({
    service: 'paygrid-gateway',
    kind: SERVER,
    name: 'POST /v1/merchants',
    parentSpanId: '',
    attributes: { 'http.response.status_code': 200 },
  });
  expect(chain.service).toMatchObject({
    service: 'paygrid-payments',
    kind: SERVER,
    name: 'POST /v1/merchants',
    attributes: { 'paygrid.request_id': requestId },
  });
  expect(chain.producer).toMatchObject({
    service: 'paygrid-payments',
    kind: PRODUCER,
    name: 'publish payments.events.v1',
  });
  expect(chain.consumer).toMatchObject({
    service: 'paygrid-webhooks',
    kind: CONSUMER,
    name: 'consume payments.events.v1',
    attributes: { 'messaging.system': 'kafka', 'messaging.consumer.group.name': 'webhooks.event-log' },
  });
  expect(chain.delivery).toMatchObject({
    service: 'paygrid-webhooks',
    kind: CLIENT,
    name: 'webhook delivery',
    attributes: { 'http.response.status_code': 200, 'paygrid.endpoint_class': 'test' },
  });
  // The outbox row kept the payments span's context.
  const [row] = await platform.sql(
    'payments',
    `select trace_context from payments.outbox where payload->>'type' = 'merchant.onboarding.updated'
       and payload->'data'->'object'->>'id' = $1`,
    [merchant.body.id],
  );
  expect(row.trace_context).toBe(`00-${traceId}-${chain.service.spanId}-01`);
});

it("writes the trace id in the gateway's access-log line", async () => {
  // A gateway of its own whose stdout this test reads (the platform's go to the test's output).
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'apps', 'gateway', 'dist', 'main.js')], {
    env: { ...platform.env, PORT: String(port), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Record<string, unknown>[] = [];
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const line of parts.filter(Boolean)) lines.push(JSON.parse(line));
  });
  try {
    const url = `http://127.0.0.1:${port}`;
    await eventually(
      async () => ((await fetch(`${url}/ready`)).status === 200 ? true : undefined),
      60_000,
      200,
    );
    const account = await platform.newAccount(['payments']);
    const answer = await fetch(`${url}/v1/merchants?limit=1`, {
      headers: { authorization: `Bearer ${account.testKey}` },
    });
    expect(answer.status).toBe(200);
    const requestId = answer.headers.get('request-id');
    const access = await eventually(async () =>
      lines.find((l) => l.access === true && l.request_id === requestId),
    );
    expect(access.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const traced = await eventually(
      async () => spans.find((s) => s.traceId === access.trace_id && s.service === 'paygrid-gateway'),
      30_000,
    );
    expect(traced).toMatchObject({ kind: SERVER, name: 'GET /v1/merchants' });
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});
