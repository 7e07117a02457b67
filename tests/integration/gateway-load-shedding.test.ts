// Load shedding end to end, in whichever mode the project runs (issue 8, bench finding 13):
// with the gateway's in-flight bound set to 1, a burst of concurrent requests is partly
// answered 503 at once (envelope, Retry-After) instead of queueing, /health is never shed,
// and the same requests succeed again once the burst is over. The deterministic version (a
// held upstream, exact counts) is in tests/unit/gateway-proxy-protections.test.ts.

import { startPlatform, type ApiResponse, type Platform, type TestAccount } from '../support/platform';
import { expectEnvelope } from '../support/http-assertions';

let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  // Per-key limits far above the burst, so any refusal here is the in-flight bound's.
  platform = await startPlatform({
    env: { GATEWAY_MAX_IN_FLIGHT: '1', RATE_LIMIT_TEST_PER_SECOND: '10000' },
  });
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  await platform?.stop();
});

const list = () => platform.api(account.testKey, 'GET', '/v1/customers?limit=100');

it('answers 503 with Retry-After beyond the bound, never for /health, and recovers', async () => {
  const burst: Promise<ApiResponse>[] = [];
  for (let i = 0; i < 40; i++) burst.push(list());
  const health = platform.api(undefined, 'GET', '/health');
  const responses = await Promise.all(burst);
  expect((await health).status).toBe(200);

  const statuses = responses.map((r) => r.status);
  expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
  const shed = responses.filter((r) => r.status === 503);
  expect(shed.length).toBeGreaterThan(0);
  expect(statuses).toContain(200);
  for (const response of shed) {
    expectEnvelope(response, 503, 'upstream_unavailable');
    expect(response.body.error.message).toContain('overloaded');
    expect(response.headers.get('retry-after')).toBe('1');
  }

  // One at a time stays within the bound: every request succeeds again.
  for (let i = 0; i < 5; i++) expect((await list()).status).toBe(200);
});
