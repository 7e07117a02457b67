// Processor credentials at rest across a key rotation (issue 13 item 2), on the embedded
// default with a persisted DATA_DIR: the first start generates the key ring into DATA_DIR
// (0600); the operator connects Stripe with the CLI (credentials from the environment); after
// a restart with a new key put first, the connection still works (the old key still opens it),
// `npm run admin -- processor-connections reencrypt` re-seals it under the new key, and after a
// restart with the new key alone it still works. stripe-mock answers the verifications.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbedded, type Embedded } from '@paygrid/embedded';
import { SecretBox } from '@paygrid/payments';
import { createLogger } from '@paygrid/platform';
import { ROOT } from '../support/platform';
import { startStripeMock, type StripeMock } from '../support/stripe-mock';

const SECRET_KEY = `sk_test_${'Rot8'.repeat(6)}`;
const SIGNING_SECRET = `whsec_${'Rot8'.repeat(8)}`;

let stripe: StripeMock;
let dataDir: string;
const logger = createLogger('test', 'silent');

beforeAll(async () => {
  stripe = await startStripeMock();
  dataDir = mkdtempSync(join(tmpdir(), 'paygrid-rotation-'));
}, 120_000);

afterAll(async () => {
  await stripe?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const start = (env: Record<string, string> = {}) =>
  startEmbedded({ dataDir, port: 0, demo: false, logger, env: { STRIPE_API_BASE: stripe.url, ...env } });

async function call(platform: Embedded, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

function admin(platform: Embedded, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, 'scripts', 'admin.mjs'), ...args],
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          PAYGRID_URL: platform.url,
          OPERATOR_TOKEN: platform.operatorToken,
          ...env,
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

it('re-seals every connection under a new key, and needs the old key no more', async () => {
  const first = await start();
  const keysFile = join(dataDir, 'processor-secrets-keys');
  const generated = readFileSync(keysFile, 'utf8').trim();
  expect(generated).toMatch(/^k1:[A-Za-z0-9+/]{43}=$/);
  expect(statSync(keysFile).mode & 0o777).toBe(0o600);

  const account = await call(first, first.operatorToken, 'POST', '/admin/v1/accounts', {
    name: 'Rotation',
    groupings: ['payments'],
  });
  const liveKey = (
    await call(first, first.operatorToken, 'POST', `/admin/v1/accounts/${account.body.id}/keys`, {
      mode: 'live',
      kind: 'secret',
    })
  ).body.secret as string;

  // Without the credentials in the environment the CLI refuses (exit 2) and sends nothing.
  const refused = await admin(first, [
    'processor-connections',
    'create',
    '--account',
    account.body.id,
    '--mode',
    'live',
  ]);
  expect(refused.code).toBe(2);
  const created = await admin(
    first,
    [
      'processor-connections',
      'create',
      '--account',
      account.body.id,
      '--mode',
      'live',
      '--description',
      'Stripe',
    ],
    { PROCESSOR_SECRET_KEY: SECRET_KEY, PROCESSOR_WEBHOOK_SIGNING_SECRET: SIGNING_SECRET },
  );
  expect(created.code).toBe(0);
  const connection = JSON.parse(created.stdout);
  expect(connection).toMatchObject({
    livemode: true,
    credentials: { secret_key_last4: SECRET_KEY.slice(-4) },
  });
  expect(created.stdout).not.toContain(SECRET_KEY);
  const sealedRow = async (platform: Embedded) =>
    (
      await platform.services.payments.runtime.db.query<{
        secrets_key_id: string;
        secrets_ciphertext: string;
      }>('select secrets_key_id, secrets_ciphertext from payments.processor_connections where id = $1', [
        connection.id,
      ])
    )[0];
  expect((await sealedRow(first)).secrets_key_id).toBe('k1');
  const verify = async (platform: Embedded) =>
    (await call(platform, liveKey, 'POST', `/v1/processor-connections/${connection.id}/verify`)).body
      .verification?.status;
  expect(await verify(first)).toBe('succeeded');
  await first.stop();

  // A new key first, the old one after it: still opens, then re-sealed under the new key.
  const k2 = SecretBox.generateEntry('k2');
  const second = await start({ PROCESSOR_SECRETS_KEYS: `${k2},${generated}` });
  try {
    expect(await verify(second)).toBe('succeeded');
    const before = await sealedRow(second);
    const reencrypted = await admin(second, ['processor-connections', 'reencrypt']);
    expect(JSON.parse(reencrypted.stdout)).toEqual({ object: 'reencryption', reencrypted: 1, unchanged: 0 });
    const after = await sealedRow(second);
    expect(after.secrets_key_id).toBe('k2');
    expect(after.secrets_ciphertext).not.toBe(before.secrets_ciphertext);
    const again = await admin(second, ['processor-connections', 'reencrypt']);
    expect(JSON.parse(again.stdout)).toEqual({ object: 'reencryption', reencrypted: 0, unchanged: 1 });
  } finally {
    await second.stop();
  }

  // The new key alone is enough now.
  const third = await start({ PROCESSOR_SECRETS_KEYS: k2 });
  try {
    expect(await verify(third)).toBe('succeeded');
  } finally {
    await third.stop();
  }
}, 240_000);
