// Upstream failures need a gateway whose services hang or are gone: a gateway process of its
// own, pointed at a port that accepts and never answers and at one nobody listens on. (The
// same code paths run at unit level, with a hanging injected service, in
// tests/unit/gateway-proxy-protections.test.ts.)

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import {
  eventually,
  freePort,
  ROOT,
  startDistributedPlatform,
  type ApiResponse,
  type DistributedPlatform,
  type TestAccount,
} from '../support/platform';
import { expectEnvelope, headersOf, JSON_HEADERS } from '../support/http-assertions';

let platform: DistributedPlatform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startDistributedPlatform();
  account = await platform.newAccount();
});

afterAll(async () => {
  await platform?.stop();
});

/** Sends `count` requests at once and waits for all; returns them with the time it took. */

describe('upstream failures (own gateway process)', () => {
  let blackhole: Server;
  const sockets: Socket[] = [];
  let gateway: ChildProcess;
  let url: string;

  beforeAll(async () => {
    // Accepts connections and never answers.
    blackhole = createServer((socket) => {
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
    const address = blackhole.address();
    const hangingPort = typeof address === 'object' && address ? address.port : 0;
    const closedPort = await freePort();
    const port = await freePort();
    const env = platform.env;
    gateway = spawn(process.execPath, [join(ROOT, 'apps', 'gateway', 'dist', 'main.js')], {
      env: {
        ...env,
        PORT: String(port),
        UPSTREAM_TIMEOUT_MS: '300',
        PAYMENTS_URL: `http://127.0.0.1:${hangingPort}`,
        INVOICING_URL: `http://127.0.0.1:${closedPort}`,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    url = `http://127.0.0.1:${port}`;
    await eventually(
      async () => ((await fetch(`${url}/ready`)).status === 200 ? true : undefined),
      60_000,
      200,
    );
  });

  afterAll(async () => {
    if (gateway && gateway.exitCode === null) {
      const exited = new Promise((resolve) => gateway.once('exit', resolve));
      gateway.kill('SIGTERM');
      await exited;
    }
    sockets.forEach((s) => s.destroy());
    await new Promise((resolve) => blackhole?.close(resolve));
  });

  async function call(path: string): Promise<ApiResponse> {
    const response = await fetch(`${url}${path}`, {
      headers: { authorization: `Bearer ${account.testKey}` },
    });
    return { status: response.status, body: await response.json(), headers: response.headers };
  }

  it('answers 504 upstream_timeout when the service does not answer within UPSTREAM_TIMEOUT_MS', async () => {
    const started = Date.now();
    const response = await call('/v1/merchants');
    expectEnvelope(response, 504, 'upstream_timeout');
    expect(response.body.error.type).toBe('api_error');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(headersOf(response)).toMatchObject(JSON_HEADERS);
  });

  it('answers 503 upstream_unavailable when the service cannot be reached', async () => {
    const response = await call('/v1/customers');
    expectEnvelope(response, 503, 'upstream_unavailable');
    expect(JSON.stringify(response.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
  });
});
