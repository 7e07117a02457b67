// The gateway's protections end to end, in whichever mode the project runs: security headers
// and Request-Id on every response, body limit (413) and JSON only (415), per-key rate limits
// with the RateLimit fields and Retry-After, and the per-account override. The upstream
// failures (504, 503) are in tests/distributed/gateway-upstream-failures.test.ts.

import { startPlatform, type ApiResponse, type Platform, type TestAccount } from '../support/platform';
import { BASELINE_HEADERS, expectEnvelope, headersOf, JSON_HEADERS } from '../support/http-assertions';

let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount();
});

afterAll(async () => {
  await platform?.stop();
});

/** Sends `count` requests at once and waits for all; returns them with the time it took. */
async function burst(count: number, send: () => Promise<ApiResponse>) {
  const started = performance.now();
  const responses = await Promise.all(Array.from({ length: count }, send));
  return { responses, elapsedS: (performance.now() - started) / 1000 };
}

describe('security headers and Request-Id', () => {
  it('are on API answers, errors, admin, health and unknown routes', async () => {
    const responses = [
      await platform.api(account.testKey, 'GET', '/v1/merchants'),
      await platform.api(undefined, 'GET', '/v1/merchants'),
      await platform.api(account.testKey, 'GET', '/v1/no-such-thing'),
      await platform.admin('GET', `/admin/v1/accounts/${account.id}`),
      await platform.api(undefined, 'GET', '/health'),
      await platform.api(undefined, 'GET', '/nothing-here'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 401, 404, 200, 200, 404]);
    for (const response of responses) {
      expect(headersOf(response)).toMatchObject(JSON_HEADERS);
      expect(response.headers.get('request-id')).toMatch(/^req_/);
      // PUBLIC_BASE_URL is http in the tests.
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('are on hosted pages without overriding a CSP the service set', async () => {
    const page = await platform.api(undefined, 'GET', '/pay/plink_doesnotexist');
    expect(headersOf(page)).toMatchObject(BASELINE_HEADERS);
    expect(page.headers.get('request-id')).toMatch(/^req_/);
    const csp = page.headers.get('content-security-policy');
    expect(csp).toContain("frame-ancestors 'none'");
  });
});

describe('request bodies', () => {
  it('refuses a body over 1 MiB with 413 payload_too_large', async () => {
    const big = JSON.stringify({ business_name: 'x'.repeat(1024 * 1024) });
    const response = await platform.api(account.testKey, 'POST', '/v1/merchants', big);
    expectEnvelope(response, 413, 'payload_too_large');
    expect(headersOf(response)).toMatchObject(JSON_HEADERS);
  });

  it('lets a body just under 1 MiB through to the service', async () => {
    const body = JSON.stringify({ business_name: 'x'.repeat(1024 * 1024 - 100) });
    const response = await platform.api(account.testKey, 'POST', '/v1/merchants', body);
    expect(response.status).toBe(400); // the service's validation, not the gateway's limit
  });

  it('refuses non-JSON bodies on /v1 with 415 unsupported_media_type', async () => {
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      const response = await platform.api(account.testKey, 'POST', '/v1/merchants', 'a=b', {
        'content-type': type,
      });
      expectEnvelope(response, 415, 'unsupported_media_type');
    }
  });
});

describe('per-key rate limits', () => {
  it('labels every answer to a valid key with RateLimit-Policy and RateLimit', async () => {
    const fresh = await platform.newAccount(['payments'], { defaultRateLimit: true });
    const test = await platform.api(fresh.testKey, 'GET', '/v1/merchants');
    expect(test.headers.get('ratelimit-policy')).toBe('"default";q=25;w=1');
    expect(test.headers.get('ratelimit')).toMatch(/^"default";r=2[34];t=1$/);
    const live = await platform.api(fresh.liveKey, 'GET', '/v1/merchants');
    expect(live.headers.get('ratelimit-policy')).toBe('"default";q=100;w=1');
    // Errors after authentication count and carry the fields too.
    const notFound = await platform.api(fresh.testKey, 'GET', '/v1/merchants/mer_nope');
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('ratelimit-policy')).toBe('"default";q=25;w=1');
    // No key, no quota: nothing is charged, nothing is labelled.
    const anonymous = await platform.api(undefined, 'GET', '/v1/merchants');
    expect(anonymous.headers.get('ratelimit')).toBeNull();
  });

  it('holds a test key near 25/s, leaves other keys alone, and lets it through again after a second', async () => {
    // The requests of a burst must arrive faster than the key's 25/s refill for some to be
    // refused. A loaded machine (other suites' processes on the same two cores) served 60 in
    // over 1.4 s in one CI rehearsal and refused none in another, inside the limit: a burst of
    // BURST is served faster than 25/s unless the platform answers fewer than 25 reads a
    // second. Up to three bursts, each on a fresh key, until one has a refusal.
    const BURST = 150;
    let limited = await platform.newAccount(['payments'], { defaultRateLimit: true });
    let { responses, elapsedS } = await burst(BURST, () =>
      platform.api(limited.testKey, 'GET', '/v1/merchants'),
    );
    for (let attempt = 1; attempt < 3 && responses.every((r) => r.status === 200); attempt++) {
      limited = await platform.newAccount(['payments'], { defaultRateLimit: true });
      ({ responses, elapsedS } = await burst(BURST, () =>
        platform.api(limited.testKey, 'GET', '/v1/merchants'),
      ));
    }
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(ok.length + refused.length).toBe(BURST);
    // The burst (25) plus what refills while the requests are in flight, with one to spare.
    expect(ok.length).toBeGreaterThanOrEqual(25);
    expect(ok.length).toBeLessThanOrEqual(25 + Math.ceil(elapsedS * 25) + 1);
    expect(refused.length).toBeGreaterThan(0);
    for (const response of refused) {
      expectEnvelope(response, 429, 'rate_limited');
      expect(response.body.error.type).toBe('rate_limit_error');
      expect(response.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(response.headers.get('ratelimit')).toMatch(/^"default";r=0;t=[1-9]\d*$/);
      expect(response.headers.get('ratelimit-policy')).toBe('"default";q=25;w=1');
      expect(headersOf(response)).toMatchObject(JSON_HEADERS);
    }

    // Another key (same account's live key; another account's test key) is unaffected.
    expect((await platform.api(limited.liveKey, 'GET', '/v1/merchants')).status).toBe(200);
    expect((await platform.api(account.testKey, 'GET', '/v1/merchants')).status).toBe(200);

    await new Promise((r) => setTimeout(r, 1_100));
    const after = await burst(10, () => platform.api(limited.testKey, 'GET', '/v1/merchants'));
    expect(after.responses.map((r) => r.status)).toEqual(Array(10).fill(200));
  });

  it("applies the account's override, set through the admin API, and goes back to the default", async () => {
    const custom = await platform.newAccount(['payments'], { defaultRateLimit: true });
    const set = await platform.admin('POST', `/admin/v1/accounts/${custom.id}`, { rate_limit_per_second: 5 });
    expect([set.status, set.body.rate_limit_per_second]).toEqual([200, 5]);
    const { responses, elapsedS } = await burst(20, () =>
      platform.api(custom.liveKey, 'GET', '/v1/merchants'),
    );
    expect(responses[0].headers.get('ratelimit-policy')).toBe('"default";q=5;w=1');
    const ok = responses.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(5);
    expect(ok).toBeLessThanOrEqual(5 + Math.ceil(elapsedS * 5) + 1);

    const raised = await platform.admin('POST', `/admin/v1/accounts/${custom.id}`, {
      rate_limit_per_second: 1000,
    });
    expect(raised.status).toBe(200);
    const many = await burst(60, () => platform.api(custom.testKey, 'GET', '/v1/merchants'));
    expect(many.responses.map((r) => r.status)).toEqual(Array(60).fill(200));
    expect(many.responses[0].headers.get('ratelimit-policy')).toBe('"default";q=1000;w=1');

    await platform.admin('POST', `/admin/v1/accounts/${custom.id}`, { rate_limit_per_second: null });
    const back = await platform.api(custom.testKey, 'GET', '/v1/merchants');
    expect(back.headers.get('ratelimit-policy')).toBe('"default";q=25;w=1');
  });
});
