// Services accept only requests that carry a context signed by the gateway.

import { createHmac } from 'node:crypto';
import { startDistributedPlatform, type DistributedPlatform } from '../support/platform';

let platform: DistributedPlatform;

beforeAll(async () => {
  platform = await startDistributedPlatform();
});

afterAll(async () => {
  await platform?.stop();
});

it('refuses a request straight to a service without, or with a forged, internal context', async () => {
  const account = await platform.newAccount(['payments']);
  const direct = `http://127.0.0.1:${platform.ports.payments}/v1/merchants`;

  const bare = await fetch(direct, { headers: { authorization: `Bearer ${account.testKey}` } });
  expect(bare.status).toBe(401);
  expect(((await bare.json()) as { error: { code: string } }).error.code).toBe('authentication_required');

  const context = Buffer.from(
    JSON.stringify({
      kind: 'api',
      account: account.id,
      account_name: 'Acme',
      livemode: false,
      key_id: 'key_x',
      scopes: ['merchants:read'],
      groupings: ['payments'],
      request_id: 'req_forged000',
      issued_at: Date.now(),
    }),
  ).toString('base64url');
  const forgedSignature = createHmac('sha256', 'not-the-secret')
    .update(`${context}.GET /v1/merchants`)
    .digest('base64url');
  const forged = await fetch(direct, {
    headers: { 'x-paygrid-context': context, 'x-paygrid-signature': forgedSignature },
  });
  expect(forged.status).toBe(401);

  // The real secret signs it correctly: proves the refusals above are about the signature.
  const goodSignature = createHmac('sha256', platform.env.INTERNAL_SIGNING_SECRET)
    .update(`${context}.GET /v1/merchants`)
    .digest('base64url');
  const signed = await fetch(direct, {
    headers: { 'x-paygrid-context': context, 'x-paygrid-signature': goodSignature },
  });
  expect(signed.status).toBe(200);

  // Health stays open for probes.
  expect((await fetch(`http://127.0.0.1:${platform.ports.payments}/health`)).status).toBe(200);
});
