// Revocation and suspension reach every gateway instance within one second (Redis pub/sub).

import { startDistributedPlatform, type DistributedPlatform } from '../support/platform';

let platform: DistributedPlatform;

beforeAll(async () => {
  platform = await startDistributedPlatform();
});

afterAll(async () => {
  await platform?.stop();
});

async function call(url: string, key: string): Promise<number> {
  const response = await fetch(`${url}/v1/merchants`, { headers: { authorization: `Bearer ${key}` } });
  return response.status;
}

it('refuses a key on a second gateway within one second of its revocation on the first', async () => {
  const second = await platform.startExtraGateway();
  try {
    const account = await platform.newAccount(['payments']);
    // Warm the key cache of the second instance.
    expect(await call(second.url, account.testKey)).toBe(200);
    expect(await call(second.url, account.testKey)).toBe(200);
    const keys = await platform.admin('GET', `/admin/v1/accounts/${account.id}/keys`);
    const keyId = keys.body.data.find((k: any) => !k.livemode).id;
    const revoked = await platform.admin('POST', `/admin/v1/keys/${keyId}/revoke`);
    expect(revoked.status).toBe(200);
    const started = Date.now();
    let status = await call(second.url, account.testKey);
    while (status === 200 && Date.now() - started < 1_000) {
      await new Promise((r) => setTimeout(r, 20));
      status = await call(second.url, account.testKey);
    }
    expect(status).toBe(401);

    // Suspension too.
    const other = await platform.newAccount(['payments']);
    expect(await call(second.url, other.testKey)).toBe(200);
    await platform.admin('POST', `/admin/v1/accounts/${other.id}/suspend`);
    const t0 = Date.now();
    let suspended = await call(second.url, other.testKey);
    while (suspended === 200 && Date.now() - t0 < 1_000) {
      await new Promise((r) => setTimeout(r, 20));
      suspended = await call(second.url, other.testKey);
    }
    expect(suspended).toBe(403);
  } finally {
    await second.stop();
  }
});
