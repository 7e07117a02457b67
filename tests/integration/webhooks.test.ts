// Webhook endpoints and signed deliveries, end to end in both modes. Deliveries go to a local
// receiver (sandbox endpoints may target private addresses in test setups; live endpoints
// never can) and are verified with the independent `standardwebhooks` package.

import { lookup } from 'node:dns/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';

interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

let platform: Platform;
let account: TestAccount;
let server: Server;
let receiverUrl: string;
const received: Received[] = [];
/** webhook-id -> how many more requests of it to fail with 500. */
const failures = new Map<string, number>();
let failNextNewId = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/gone') return void res.writeHead(410).end('gone');
      if (req.url === '/redirect')
        return void res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      const id = String(req.headers['webhook-id']);
      if (!failures.has(id)) {
        failures.set(id, failNextNewId);
        failNextNewId = 0;
      }
      const left = failures.get(id) ?? 0;
      const status = left > 0 ? 500 : 200;
      if (left > 0) failures.set(id, left - 1);
      received.push({
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        status,
      });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'try again');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  platform = await startPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  await platform?.stop();
  await new Promise((resolve) => server?.close(resolve));
});

const headersOf = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

describe('webhook deliveries', () => {
  let endpoint: { id: string; secret: string };
  let firstEventId: string;

  it('retries a failing receiver with the same webhook-id and valid signatures, recording every attempt', async () => {
    const created = await platform.api(account.testKey, 'POST', '/v1/webhooks', {
      url: receiverUrl,
      enabled_events: ['merchant.onboarding.updated'],
      description: 'local receiver',
    });
    expect(created.status).toBe(200);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    endpoint = created.body;
    const fetched = await platform.api(account.testKey, 'GET', `/v1/webhooks/${endpoint.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.secret).toBeUndefined();

    failNextNewId = 2;
    const merchant = await platform.api(account.testKey, 'POST', '/v1/merchants', {
      business_name: 'Hooked Ltd',
      email: 'ops@hooked.test',
      country: 'GB',
      default_currency: 'GBP',
      business_type: 'company',
    });
    expect(merchant.status).toBe(200);

    // Attempt 1 immediately, attempt 2 after ~5 s (sandbox schedule): both answered 500.
    const firstTwo = await eventually(
      async () => (received.length >= 2 ? received.slice(0, 2) : undefined),
      20_000,
    );
    firstEventId = headersOf(firstTwo[0])['webhook-id'];
    expect(firstTwo.map((r) => [headersOf(r)['webhook-id'], r.status])).toEqual([
      [firstEventId, 500],
      [firstEventId, 500],
    ]);
    // The next sandbox retry is a minute away: retry the delivery by hand.
    // Both attempts recorded (the receiver answers before the worker writes the attempt).
    const delivery = await eventually(async () => {
      const list = await platform.api(account.testKey, 'GET', `/v1/webhooks/${endpoint.id}/deliveries`);
      const d = list.body.data.find((x: any) => x.event === firstEventId);
      return d?.attempt_count === 2 ? d : undefined;
    });
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 2 });
    const retried = await platform.api(
      account.testKey,
      'POST',
      `/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/retry`,
      {},
    );
    expect(retried.status).toBe(200);

    const all = await eventually(async () => {
      const mine = received.filter((r) => headersOf(r)['webhook-id'] === firstEventId);
      return mine.length >= 3 ? mine : undefined;
    }, 20_000);
    expect(all.map((r) => r.status)).toEqual([500, 500, 200]);
    const verifier = new Webhook(endpoint.secret);
    for (const r of all) {
      const event = verifier.verify(r.body, headersOf(r)) as any;
      expect(event).toMatchObject({ id: firstEventId, type: 'merchant.onboarding.updated', livemode: false });
    }

    const done = await eventually(async () => {
      const page = await platform.api(account.testKey, 'GET', `/v1/webhooks/${endpoint.id}/deliveries`);
      const d = page.body.data.find((x: any) => x.event === firstEventId);
      return d?.status === 'succeeded' ? d : undefined;
    });
    expect(done.attempt_count).toBe(3);
    expect(done.attempts.map((a: any) => a.status_code)).toEqual([500, 500, 200]);
    // The receiver is on loopback, a private address: what it answered is not kept (issue 12
    // finding 1: a sandbox endpoint must not let a key read internal services), only its status.
    expect(done.attempts.map((a: any) => a.response_excerpt)).toEqual([null, null, null]);
  });

  it('signs with both secrets for a while after a rotation', async () => {
    const old = endpoint.secret;
    const rotated = await platform.api(
      account.testKey,
      'POST',
      `/v1/webhooks/${endpoint.id}/rotate-secret`,
      {},
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(old);
    const test = await platform.api(account.testKey, 'POST', `/v1/webhooks/${endpoint.id}/test`, {});
    expect(test.status).toBe(200);
    const r = await eventually(async () =>
      received.find((x) => headersOf(x)['webhook-id'] === test.body.event),
    );
    expect(headersOf(r)['webhook-signature'].split(' ')).toHaveLength(2);
    for (const secret of [old, rotated.body.secret]) {
      expect(new Webhook(secret).verify(r.body, headersOf(r))).toMatchObject({ id: test.body.event });
    }
  });

  it('updates, disables and deletes an endpoint', async () => {
    const updated = await platform.api(account.testKey, 'POST', `/v1/webhooks/${endpoint.id}`, {
      disabled: true,
      enabled_events: ['*'],
    });
    expect(updated.body).toMatchObject({ status: 'disabled', enabled_events: ['*'] });
    const listed = await platform.api(account.testKey, 'GET', '/v1/webhooks');
    expect(listed.body.data.map((e: any) => e.id)).toContain(endpoint.id);
    const deleted = await platform.api(account.testKey, 'DELETE', `/v1/webhooks/${endpoint.id}`);
    expect(deleted.body).toEqual({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
    expect((await platform.api(account.testKey, 'GET', `/v1/webhooks/${endpoint.id}`)).status).toBe(404);
  });
});

describe('a burst of deliveries', () => {
  it('records every success once, with one attempt each, when many succeed at the same moment', async () => {
    const burst = await platform.newAccount(['payments']);
    const endpoints: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await platform.api(burst.testKey, 'POST', '/v1/webhooks', {
        url: `${receiverUrl}?burst=${i}`,
        enabled_events: ['merchant.onboarding.updated'],
      });
      expect(created.status).toBe(200);
      endpoints.push(created.body.id);
    }
    const merchants = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        platform.api(burst.testKey, 'POST', '/v1/merchants', {
          business_name: `Burst ${i} Ltd`,
          email: `ops${i}@burst.test`,
          country: 'GB',
          default_currency: 'GBP',
          business_type: 'company',
        }),
      ),
    );
    expect(merchants.map((m) => m.status)).toEqual(Array(12).fill(200));
    // Successes finishing together are written together (apps/webhooks delivered.ts); each
    // delivery still ends succeeded with exactly its one attempt, and each endpoint received
    // each of its events once. (A merchant's creation emits onboarding updates as its
    // requirements are computed: at least one per merchant.)
    for (let i = 0; i < 3; i++) {
      const deliveries = await eventually(async () => {
        const page = await platform.api(
          burst.testKey,
          'GET',
          `/v1/webhooks/${endpoints[i]}/deliveries?limit=100`,
        );
        const data = page.body.data as any[];
        return data.length >= 12 && data.every((d) => d.status === 'succeeded') ? data : undefined;
      }, 30_000);
      expect(deliveries.map((d) => [d.attempt_count, d.attempts.map((a: any) => a.status_code)])).toEqual(
        deliveries.map(() => [1, [200]]),
      );
      const requests = received
        .filter((r) => r.url === `/hook?burst=${i}`)
        .map((r) => r.headers['webhook-id']);
      expect(requests.sort()).toEqual(deliveries.map((d) => d.event).sort());
    }
  });
});

describe('failing receivers', () => {
  const endpointAt = async (path: string) => {
    const created = await platform.api(account.testKey, 'POST', '/v1/webhooks', {
      url: receiverUrl.replace('/hook', path),
      enabled_events: ['*'],
    });
    expect(created.status).toBe(200);
    return created.body.id as string;
  };

  it('disables an endpoint that answers 410', async () => {
    const id = await endpointAt('/gone');
    expect((await platform.api(account.testKey, 'POST', `/v1/webhooks/${id}/test`)).status).toBe(200);
    const disabled = await eventually(async () => {
      const endpoint = await platform.api(account.testKey, 'GET', `/v1/webhooks/${id}`);
      return endpoint.body.status === 'disabled' ? endpoint.body : undefined;
    });
    expect(disabled.disabled_reason).toContain('410');
  });

  it('the sandbox test helper disables an endpoint as the worker does after 5 failing days', async () => {
    const id = await endpointAt('/hook');
    const helper = (key = account.testKey) =>
      platform.api(key, 'POST', `/v1/webhooks/${id}/test-helpers/disable`, {});
    // Another account and live mode see no such endpoint; a read-only key may not.
    const other = await platform.newAccount(['payments']);
    for (const key of [other.testKey, account.liveKey]) {
      const refused = await helper(key);
      expect({ status: refused.status, code: refused.body.error.code }).toEqual({
        status: 404,
        code: 'resource_missing',
      });
    }
    const readOnly = await platform.admin('POST', `/admin/v1/accounts/${account.id}/keys`, {
      mode: 'test',
      kind: 'restricted',
      scopes: ['webhooks:read'],
    });
    expect((await helper(readOnly.body.secret)).status).toBe(403);
    expect((await platform.api(account.testKey, 'GET', `/v1/webhooks/${id}`)).body.status).toBe('enabled');

    const disabled = await helper();
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({
      id,
      status: 'disabled',
      disabled_reason: 'every delivery failed for 5 days',
    });
    const event = await eventually(async () => {
      const events = await platform.api(account.testKey, 'GET', '/v1/events?type=webhook_endpoint.disabled');
      return events.body.data.find((e: any) => e.data.object.id === id);
    });
    expect(event.data.object).toMatchObject({
      status: 'disabled',
      disabled_reason: disabled.body.disabled_reason,
    });
    // Once: a disabled endpoint is 409; enabled again through the API, it can be disabled again.
    const again = await helper();
    expect({ status: again.status, code: again.body.error.code }).toEqual({
      status: 409,
      code: 'invalid_state_transition',
    });
    await platform.api(account.testKey, 'POST', `/v1/webhooks/${id}`, { disabled: false });
    expect((await helper()).status).toBe(200);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const id = await endpointAt('/redirect');
    expect((await platform.api(account.testKey, 'POST', `/v1/webhooks/${id}/test`)).status).toBe(200);
    const delivery = await eventually(async () => {
      const page = await platform.api(account.testKey, 'GET', `/v1/webhooks/${id}/deliveries`);
      return page.body.data[0]?.attempts.length ? page.body.data[0] : undefined;
    });
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1 });
    expect(delivery.attempts[0]).toMatchObject({ status_code: 302, error: 'redirects are not followed' });
  });
});

describe('registration checks', () => {
  it("refuses event types outside the account's groupings, naming them", async () => {
    const invoicingOnly = await platform.newAccount(['invoicing']);
    for (const type of ['payment.succeeded', 'no.such_event']) {
      const response = await platform.api(invoicingOnly.testKey, 'POST', '/v1/webhooks', {
        url: receiverUrl,
        enabled_events: ['invoice.paid', type],
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'parameter_invalid', param: 'enabled_events' });
      expect(response.body.error.message).toContain(type);
    }
  });

  it.each([
    'http://127.0.0.1/hook',
    'http://[::1]/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://10.0.0.1/hook',
    'https://localhost/hook',
    'https://127.0.0.1/hook',
    'https://[::ffff:127.0.0.1]/hook',
  ])('refuses the live target %s', async (url) => {
    const response = await platform.api(account.liveKey, 'POST', '/v1/webhooks', {
      url,
      enabled_events: ['*'],
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'parameter_invalid', param: 'url' });
  });

  it("refuses a live hostname that resolves to a private address (this machine's name)", async () => {
    // The machine's own name resolves (through /etc/hosts) to a loopback or private address
    // on this machine and on CI runners; the precondition says so when it does not.
    const name = hostname();
    const addresses = await lookup(name, { all: true });
    expect(
      addresses.some((a) => /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|::1$|f[cd])/.test(a.address)),
    ).toBe(true);
    const response = await platform.api(account.liveKey, 'POST', '/v1/webhooks', {
      url: `https://${name}/hook`,
      enabled_events: ['*'],
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'parameter_invalid', param: 'url' });
    expect(response.body.error.message).toMatch(/resolves to/);
  });
});
