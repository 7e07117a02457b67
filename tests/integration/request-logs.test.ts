// The request log (docs/api.md, "Request log"), in both run modes: the gateway notes each
// answered request of an account and the webhooks service keeps and serves them; `paygrid
// logs tail` prints them as they happen (method, path, status, latency, request id), the
// list shows them newest first, and neither shows a query string, a body or a key. Another
// account, the other mode, and a key without request_logs:read see none of them.

import { run, type Io } from '@paygrid/cli';
import { eventually, usePlatform } from '../support/platform';

const suite = usePlatform();

describe('request log', () => {
  it('paygrid logs tail prints the requests as they are answered, without query strings or bodies', async () => {
    const lines: string[] = [];
    let ready!: () => void;
    const started = new Promise<void>((resolve) => (ready = resolve));
    const stop = new AbortController();
    const io: Io = {
      out: (t) => lines.push(t),
      err: (t) => t.startsWith('Ready') && ready(),
      env: {
        PAYGRID_KEY: suite.account.testKey,
        PAYGRID_URL: suite.platform.url,
        PAYGRID_CONFIG: '/nonexistent',
      },
      signal: stop.signal,
    };
    const tail = run(['logs', 'tail'], io);
    await started;

    const listed = await suite.api('GET', '/v1/events?limit=3&type=secret_query');
    const refused = await suite.api('POST', '/v1/payment-links', {
      amount: -1,
      currency: 'EUR',
      note: 'secret-body',
    });
    const missing = await suite.api('GET', '/v1/customers/cus_doesnotexist0000');
    expect([listed.status, refused.status, missing.status]).toEqual([200, 400, 404]);
    const ids = [listed, refused, missing].map((r) => r.headers.get('request-id') as string);

    await eventually(async () => (ids.every((id) => lines.some((l) => l.includes(id))) ? true : undefined));
    stop.abort();
    expect(await tail).toBe(0);
    const line = (id: string) => lines.find((l) => l.endsWith(id)) as string;
    expect(line(ids[0])).toMatch(/^\S+Z {2}GET {4}\/v1\/events {2}200 {2}\d+ ms {2}req_/);
    expect(line(ids[1])).toMatch(/ POST {3}\/v1\/payment-links {2}400 {2}\d+ ms /);
    expect(line(ids[2])).toMatch(/ GET {4}\/v1\/customers\/cus_doesnotexist0000 {2}404 /);
    expect(lines.join('\n')).not.toMatch(/secret_query|secret-body|sk_test/);
  });

  it('lists them newest first, for this account and mode only, with request_logs:read', async () => {
    const mine = await suite.api('GET', '/v1/events?limit=1');
    const id = mine.headers.get('request-id');
    const page = await eventually(async () => {
      const answer = await suite.api('GET', '/v1/request-logs?limit=100');
      return answer.body.data?.some((r: any) => r.id === id) ? answer : undefined;
    });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ object: 'list', url: '/v1/request-logs' });
    const entry = page.body.data.find((r: any) => r.id === id);
    expect(entry).toEqual({
      object: 'request_log',
      id,
      method: 'GET',
      path: '/v1/events',
      status: 200,
      duration_ms: expect.any(Number),
      created_at: expect.stringMatching(/Z$/),
    });
    const times = page.body.data.map((r: any) => r.created_at);
    expect([...times].sort().reverse()).toEqual(times);

    // The other mode of the same account, and another account, see none of it.
    const live = await suite.platform.api(suite.account.liveKey, 'GET', '/v1/request-logs?limit=100');
    expect(live.status).toBe(200);
    expect(live.body.data.map((r: any) => r.id)).not.toContain(id);
    const other = await suite.platform.newAccount(['payments']);
    const theirs = await suite.platform.api(other.testKey, 'GET', '/v1/request-logs?limit=100');
    expect(theirs.body.data.map((r: any) => r.id)).not.toContain(id);

    const key = await suite.platform.admin('POST', `/admin/v1/accounts/${suite.account.id}/keys`, {
      mode: 'test',
      kind: 'restricted',
      scopes: ['events:read'],
      name: 'no logs',
    });
    const denied = await suite.platform.api(key.body.secret, 'GET', '/v1/request-logs');
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('insufficient_scope');
    const bad = await suite.api('GET', '/v1/request-logs?limit=1000');
    expect(bad.status).toBe(400);
    expect((await suite.api('GET', '/v1/request-logs?bogus=1')).status).toBe(400);
  });
});
