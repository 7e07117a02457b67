// An endpoint whose deliveries all fail for 5 days is disabled, with a
// webhook_endpoint.disabled event (time moved with the injected clock).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { createLogger, ManualClock } from '@paygrid/platform';
import { eventually } from '../support/platform';

let embedded: Embedded;
let server: Server;
let hits = 0;
const clock = new ManualClock(new Date());

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    req.resume();
    req.on('end', () => res.writeHead(503).end('down'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    clock,
    logger: createLogger('test', 'silent'),
  });
});

afterAll(async () => {
  await embedded?.stop();
  await new Promise((resolve) => server?.close(resolve));
});

it('disables the endpoint after 5 days of failures and says so with an event', async () => {
  const key = embedded.demo?.secret_key as string;
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${embedded.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const endpoint = await api('POST', '/v1/webhooks', { url, enabled_events: ['*'] });
  expect(endpoint.status).toBe(200);

  expect((await api('POST', `/v1/webhooks/${endpoint.body.id}/test`)).status).toBe(200);
  await eventually(async () => (hits >= 1 ? true : undefined));
  expect((await api('GET', `/v1/webhooks/${endpoint.body.id}`)).body.status).toBe('enabled');

  clock.advance(5 * 24 * 3600 * 1000 + 60_000);
  const disabled = await eventually(async () => {
    const current = await api('GET', `/v1/webhooks/${endpoint.body.id}`);
    return current.body.status === 'disabled' ? current.body : undefined;
  });
  expect(disabled.disabled_reason).toContain('5 days');
  const event = await eventually(async () => {
    const events = await api('GET', '/v1/events?type=webhook_endpoint.disabled');
    return events.body.data[0];
  });
  expect(event.data.object).toMatchObject({ id: endpoint.body.id, status: 'disabled' });
});
