// Regression tests of issue 12 (what an independent fuzzer and an attacker's afternoon found),
// in both run modes, each through the gateway as a client sends it. Each case failed on the
// code before its fix.

import { createServer } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';

let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  await platform?.stop();
});

/** Sends a request line exactly as given (no client re-encoding), as Python's requests may. */
function rawRequest(
  target: Buffer,
  headers: Record<string, string>,
): Promise<{ head: string; body: string }> {
  const { hostname, port } = new URL(platform.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      const lines = Object.entries({ host: hostname, connection: 'close', ...headers }).map(
        ([name, value]) => `${name}: ${value}`,
      );
      socket.write(
        Buffer.concat([
          Buffer.from('GET '),
          target,
          Buffer.from(` HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`),
        ]),
      );
    });
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('end', () => {
      const at = data.indexOf('\r\n\r\n');
      resolve({ head: data.slice(0, at), body: data.slice(at + 4) });
    });
    socket.on('error', reject);
  });
}

const post = (path: string, body: string) =>
  platform.api(account.testKey, 'POST', path, body, { 'content-type': 'application/json' });

describe('finding 4: query strings and bytes a client may send raw', () => {
  it.each(["?email=o'brien@example.test", '?email=o"b<r@example.test'])(
    'a valid key with %s in the query is served, not 401',
    async (query) => {
      const answer = await rawRequest(Buffer.from(`/v1/customers${query}`, 'latin1'), {
        authorization: `Bearer ${account.testKey}`,
      });
      expect(answer.head).toMatch(/^HTTP\/1\.1 200/);
      expect(JSON.parse(answer.body)).toMatchObject({ object: 'list' });
    },
  );

  it('a raw non-ASCII byte gets the error envelope, a request id and the security headers', async () => {
    const answer = await rawRequest(Buffer.from('/v1/customers?email=z\xe9@example.test', 'latin1'), {
      authorization: `Bearer ${account.testKey}`,
    });
    expect(answer.head).toMatch(/^HTTP\/1\.1 400/);
    expect(answer.head).toMatch(/^request-id: req_/im);
    expect(answer.head).toMatch(/^x-content-type-options: nosniff/im);
    const body = JSON.parse(answer.body);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid' });
    expect(body.error.request_id).toMatch(/^req_/);
  });
});

describe('finding 5: very long path ids', () => {
  const long = 'x'.repeat(1200);
  it.each([
    `/v1/merchants/mer_${long}`,
    `/v1/payment-links/plink_${long}`,
    `/v1/transactions/txn_${long}`,
    `/v1/refunds/re_${long}`,
    `/v1/mandates/mdt_${long}`,
    `/v1/customers/cus_${long}`,
    `/v1/invoices/inv_${long}`,
    `/v1/estimates/est_${long}`,
    `/v1/subscriptions/sub_${long}`,
    `/v1/test-clocks/clock_${long}`,
    `/v1/webhooks/we_${long}`,
    `/v1/events/evt_${long}`,
  ])('%#: an API id over 1,000 characters is a 404 envelope', async (path) => {
    const answer = await platform.api(account.testKey, 'GET', path);
    expect([answer.status, answer.body.error.code]).toEqual([404, 'resource_missing']);
  });

  it.each([`/pay/plink_${long}`, `/i/${long}`, `/q/${long}`])(
    '%#: a public page with such an id is a 404, not a 500',
    async (path) => {
      const answer = await platform.api(undefined, 'GET', path);
      expect(answer.status).toBe(404);
    },
  );
});

describe('finding 9: contract strictness', () => {
  it('a JSON null body is refused, and nothing is created', async () => {
    const before = await platform.api(account.testKey, 'GET', '/v1/merchants?limit=100');
    for (const path of ['/v1/merchants', '/v1/customers', '/v1/webhooks', '/v1/payment-links']) {
      const answer = await post(path, 'null');
      expect([path, answer.status, answer.body.error.code]).toEqual([path, 400, 'parameter_invalid']);
    }
    const after = await platform.api(account.testKey, 'GET', '/v1/merchants?limit=100');
    expect(after.body.data.length).toBe(before.body.data.length);
  });

  it.each(['__proto__', 'constructor', 'prototype'])('a body key %s is parameter_unknown', async (key) => {
    const answer = await post('/v1/customers', `{"name":"A","${key}":{"polluted":true}}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'parameter_unknown', param: key });
  });

  it('a POST that takes no body refuses one with fields, and changes nothing; an empty one is fine', async () => {
    const hook = await post('/v1/webhooks', '{"url":"https://hooks.example.test/in","enabled_events":["*"]}');
    expect([hook.status, hook.body.error]).toEqual([200, undefined]);
    const test = `/v1/webhooks/${hook.body.id}/test`;
    const deliveries = async () =>
      (await platform.api(account.testKey, 'GET', `/v1/webhooks/${hook.body.id}/deliveries`)).body.data
        .length;
    const refused = await post(test, '{"event":"payment.succeeded"}');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'parameter_unknown', param: 'event' });
    const array = await post(test, '[1]');
    expect([array.status, array.body.error.code]).toEqual([400, 'parameter_unknown']);
    expect(await deliveries()).toBe(0);
    for (const body of ['{}', '']) {
      const answer = await platform.api(
        account.testKey,
        'POST',
        test,
        body || undefined,
        body ? { 'content-type': 'application/json' } : {},
      );
      expect([body, answer.status]).toEqual([body, 200]);
    }
    expect(await deliveries()).toBe(2);
  });

  it('invalid UTF-8 in a body is invalid_json, not text with U+FFFD stored', async () => {
    const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const answer = await platform.api(account.testKey, 'POST', '/v1/customers', body, {
      'content-type': 'application/json',
    });
    expect([answer.status, answer.body.error?.code]).toEqual([400, 'invalid_json']);
  });

  it.each(['1e2', '0x10', '10.0', ' 10'])('limit=%s is refused (digits only)', async (limit) => {
    const answer = await platform.api(
      account.testKey,
      'GET',
      `/v1/merchants?limit=${encodeURIComponent(limit)}`,
    );
    expect([answer.status, answer.body.error.code, answer.body.error.param]).toEqual([
      400,
      'parameter_invalid',
      'limit',
    ]);
  });

  it('the Authorization scheme is case-insensitive', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const answer = await platform.api(undefined, 'GET', '/v1/merchants', undefined, {
        authorization: `${scheme} ${account.testKey}`,
      });
      expect([scheme, answer.status]).toEqual([scheme, 200]);
    }
  });

  it('a method the URL does not take is 405 with Allow', async () => {
    const answer = await platform.api(account.testKey, 'DELETE', '/v1/merchants');
    expect(answer.status).toBe(405);
    expect(answer.body.error.code).toBe('method_not_allowed');
    expect(answer.headers.get('allow')).toBe('GET, POST');
  });

  it.each(['PUT', 'PATCH', 'OPTIONS', 'QUERY'])(
    'a method the API never uses (%s) is 405 with the methods the document lists',
    async (method) => {
      const list = await platform.api(account.testKey, method, '/v1/merchants');
      expect([list.status, list.body.error.code, list.headers.get('allow')]).toEqual([
        405,
        'method_not_allowed',
        'GET, POST',
      ]);
      const one = await platform.api(account.testKey, method, '/v1/webhooks/we_00000000000000000000');
      expect([one.status, one.headers.get('allow')]).toEqual([405, 'DELETE, GET, POST']);
      const unknown = await platform.api(account.testKey, method, '/v1/nothing-here');
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'route_not_found']);
    },
  );

  it('a currency with spaces is refused; a string amount is told to be an integer', async () => {
    const spaced = await post('/v1/payment-links', '{"amount":100,"currency":"USD "}');
    expect([spaced.status, spaced.body.error.param]).toEqual([400, 'currency']);
    const text = await post('/v1/payment-links', '{"amount":"1000","currency":"USD"}');
    expect([text.status, text.body.error.param]).toEqual([400, 'amount']);
    expect(text.body.error.message).toBe('amount must be an integer number of minor units');
  });
});

describe('finding 1: sandbox webhook endpoints and private networks', () => {
  it.each(['http://10.0.0.1/hook', 'http://169.254.169.254/latest/meta-data', 'http://192.168.1.10:8080/'])(
    'refuses a sandbox endpoint at a private, non-loopback address: %s',
    async (url) => {
      const answer = await platform.api(account.testKey, 'POST', '/v1/webhooks', {
        url,
        enabled_events: ['*'],
      });
      expect([answer.status, answer.body.error.code, answer.body.error.param]).toEqual([
        400,
        'parameter_invalid',
        'url',
      ]);
    },
  );

  it('delivers to loopback but keeps neither the answer nor connection details', async () => {
    // A "service" on loopback whose answer a sandbox key must not be able to read.
    const secretService = createServer((_req, res) => res.end('internal: db_password=hunter2'));
    await new Promise<void>((resolve) => secretService.listen(0, '127.0.0.1', resolve));
    const port = (secretService.address() as AddressInfo).port;
    // A closed port next: its connection error must not map the host and port either.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    try {
      for (const [target, expectStatus] of [
        [`http://127.0.0.1:${port}/`, 200],
        [`http://127.0.0.1:${closedPort}/`, null],
      ] as const) {
        const endpoint = await platform.api(account.testKey, 'POST', '/v1/webhooks', {
          url: target,
          enabled_events: ['*'],
        });
        expect(endpoint.status).toBe(200);
        const test = await platform.api(account.testKey, 'POST', `/v1/webhooks/${endpoint.body.id}/test`, {});
        expect(test.status).toBe(200);
        const attempt = await eventually(async () => {
          const list = await platform.api(
            account.testKey,
            'GET',
            `/v1/webhooks/${endpoint.body.id}/deliveries`,
          );
          return list.body.data[0]?.attempts?.[0];
        });
        expect(attempt.status_code).toBe(expectStatus);
        expect(attempt.response_excerpt).toBeNull();
        expect(JSON.stringify(attempt)).not.toContain('hunter2');
        expect(JSON.stringify(attempt)).not.toContain(String(closedPort));
        expect(JSON.stringify(attempt)).not.toContain('ECONNREFUSED');
      }
    } finally {
      await new Promise<void>((resolve) => secretService.close(() => resolve()));
    }
  });
});

describe('finding 10: the test helper names only a customer of the account and mode', () => {
  const pay = (key: string, customer: string) =>
    platform.api(key, 'POST', '/v1/transactions/test-helpers/payments', {
      amount: 500,
      currency: 'USD',
      card_number: '4242424242424242',
      save_card: true,
      customer,
    });
  const refusal = (answer: { status: number; body: any }) => [
    answer.status,
    answer.body.error?.code,
    answer.body.error?.param,
  ];

  it("refuses another account's customer, the live mode's customer and an unknown id with 404", async () => {
    const other = await platform.newAccount(['payments', 'invoicing']);
    const foreign = await platform.api(other.testKey, 'POST', '/v1/customers', { name: 'Not yours' });
    const live = await platform.api(account.liveKey, 'POST', '/v1/customers', { name: 'Live only' });
    expect([foreign.status, live.status]).toEqual([200, 200]);
    for (const customer of [foreign.body.id, live.body.id, 'cus_000000000000neverexisted']) {
      expect(refusal(await pay(account.testKey, customer))).toEqual([404, 'resource_missing', 'customer']);
    }
    // Nothing was charged or saved for them.
    const mandates = await platform.api(account.testKey, 'GET', '/v1/mandates?limit=100');
    const named = mandates.body.data.filter((m: any) => [foreign.body.id, live.body.id].includes(m.customer));
    expect(named).toEqual([]);
  });

  it('takes a customer created a moment ago, and refuses it once archived', async () => {
    const created = await platform.api(account.testKey, 'POST', '/v1/customers', { name: 'Fresh' });
    expect(created.status).toBe(200);
    // At once, without waiting for the event: the helper waits on its projection.
    const paid = await pay(account.testKey, created.body.id);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'succeeded', customer: created.body.id });
    const archived = await platform.api(account.testKey, 'DELETE', `/v1/customers/${created.body.id}`);
    expect(archived.status).toBe(200);
    const refused = await eventually(async () => {
      const answer = await pay(account.testKey, created.body.id);
      return answer.status === 200 ? undefined : answer;
    });
    expect(refusal(refused)).toEqual([400, 'parameter_invalid', 'customer']);
  });
});
