// Issue 12 finding 7, on the embedded default with its real PGlite database and the service's
// own log: an endpoint deleted while its delivery is in flight discards the attempt instead of
// logging a foreign-key error with the full SQL (finding 6 is tests/unit/webhook-worker-context.test.ts).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { createLogger } from '@paygrid/platform';
import { eventually } from '../support/platform';

let embedded: Embedded;
let server: Server;
let logDir: string;
let logFile: string;
/** Requests the receiver holds until the test answers them. */
const held: ServerResponse[] = [];
let hold = false;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => (hold ? held.push(res) : res.writeHead(200).end('ok')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  logDir = mkdtempSync(join(tmpdir(), 'paygrid-worker-log-'));
  logFile = join(logDir, 'log.ndjson');
  embedded = await startEmbedded({
    dataDir: 'memory://',
    port: 0,
    logger: createLogger('test', 'debug', logFile),
  });
});

afterAll(async () => {
  held.forEach((res) => res.destroy());
  await embedded?.stop();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(logDir, { recursive: true, force: true });
});

const logLines = (): { level: number; msg?: string; err?: { message?: string } }[] =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
/** Lines at pino's error level (50) or above. */
const errors = () => logLines().filter((line) => line.level >= 50);

const api = (method: string, path: string, body?: unknown) =>
  fetch(`${embedded.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${embedded.demo?.secret_key as string}`,
      'content-type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

const receiver = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

it('finding 7: an endpoint deleted during its delivery discards the attempt, with no error logged', async () => {
  hold = true;
  const endpoint = await api('POST', '/v1/webhooks', { url: receiver(), enabled_events: ['*'] });
  expect((await api('POST', `/v1/webhooks/${endpoint.body.id}/test`)).status).toBe(200);
  await eventually(async () => (held.length > 0 ? true : undefined));
  const deleted = await api('DELETE', `/v1/webhooks/${endpoint.body.id}`);
  expect(deleted.body).toMatchObject({ id: endpoint.body.id, deleted: true });
  hold = false;
  held.splice(0).forEach((res) => res.writeHead(200).end('ok'));
  await eventually(async () =>
    logLines().some((line) => line.msg === 'endpoint deleted during a delivery; attempt discarded')
      ? true
      : undefined,
  );
  expect(errors()).toEqual([]);
});
