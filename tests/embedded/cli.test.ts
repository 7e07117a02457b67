// The operator CLI (`npm run admin -- ...`, scripts/admin.mjs) against a running embedded
// platform: what a newcomer does after `npm start` — create an account and a restricted key,
// then call the API with the key it printed.

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, startPlatform, type Platform } from '../support/platform';

let platform: Platform;

beforeAll(async () => {
  platform = await startPlatform();
});

afterAll(async () => {
  await platform?.stop();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: Record<string, string> = {}, command = process.execPath): Promise<Run> {
  const argv = command === process.execPath ? [join(ROOT, 'scripts', 'admin.mjs'), ...args] : args;
  return new Promise((resolve) => {
    execFile(
      command,
      argv,
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          PAYGRID_URL: platform.url,
          OPERATOR_TOKEN: platform.operatorToken,
          ...env,
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function ok(args: string[]) {
  const result = await run(args);
  if (result.code !== 0) throw new Error(`admin ${args.join(' ')} failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

describe('npm run admin', () => {
  it('creates an account and a restricted key whose secret calls the API', async () => {
    const account = await ok([
      'accounts',
      'create',
      '--name',
      'CLI shop',
      '--groupings',
      'payments,invoicing',
    ]);
    expect(account).toMatchObject({
      object: 'account',
      name: 'CLI shop',
      groupings: ['payments', 'invoicing'],
    });

    const key = await ok([
      'keys',
      'create',
      '--account',
      account.id,
      '--mode',
      'test',
      '--scopes',
      'merchants:write',
      '--name',
      'cli key',
    ]);
    expect(key).toMatchObject({ kind: 'restricted', scopes: ['merchants:write'], name: 'cli key' });
    expect(key.secret).toMatch(/^rk_test_/);

    const created = await platform.api(key.secret, 'POST', '/v1/merchants', {
      business_name: 'Acme',
      email: 'ops@acme.test',
      country: 'GB',
      default_currency: 'GBP',
      business_type: 'company',
    });
    expect(created.status).toBe(200);
    const denied = await platform.api(key.secret, 'GET', '/v1/events');
    expect(denied.body.error.code).toBe('insufficient_scope');

    const listed = await ok(['keys', 'list', '--account', account.id]);
    expect(listed.data.map((k: any) => k.id)).toEqual([key.id]);
    const updated = await ok([
      'accounts',
      'update',
      account.id,
      '--rate-limit',
      '10',
      '--metadata',
      'team=ops',
    ]);
    expect(updated).toMatchObject({ rate_limit_per_second: 10, metadata: { team: 'ops' } });
    expect(
      (await ok(['accounts', 'update', account.id, '--rate-limit', 'default'])).rate_limit_per_second,
    ).toBe(null);
    expect((await ok(['accounts', 'get', account.id])).id).toBe(account.id);
    expect((await ok(['accounts', 'list', '--limit', '1'])).data[0].id).toBe(account.id);

    const rolled = await ok(['keys', 'roll', key.id, '--grace-period', '60']);
    expect(rolled.secret).toMatch(/^rk_test_/);
    expect((await ok(['keys', 'get', key.id])).rolled_to).toBe(rolled.id);
    expect((await ok(['keys', 'revoke', rolled.id])).revoked_at).not.toBeNull();
    expect((await ok(['accounts', 'suspend', account.id])).status).toBe('suspended');
    expect((await ok(['accounts', 'reactivate', account.id])).status).toBe('active');
  });

  it('prints a live merchant decision, and an API error on stderr with exit code 1', async () => {
    const account = await ok(['accounts', 'create', '--name', 'Live', '--groupings', 'payments']);
    const key = await ok(['keys', 'create', '--account', account.id, '--mode', 'live']);
    const merchant = await platform.api(key.secret, 'POST', '/v1/merchants', {
      business_name: 'Acme',
      email: 'ops@acme.test',
      country: 'GB',
      default_currency: 'GBP',
      business_type: 'company',
    });
    expect(merchant.body.onboarding.status).toBe('in_review');
    const approved = await ok(['merchants', 'approve', merchant.body.id]);
    expect(approved.onboarding.status).toBe('active');
    // The operator sees which accounts cannot take live payments (no processor connected).
    const unprocessed = await ok(['accounts', 'list', '--live-processor', 'none', '--limit', '100']);
    expect(unprocessed.data.find((a: any) => a.id === account.id)).toMatchObject({ live_processor: 'none' });
    expect((await ok(['accounts', 'list', '--live-processor', 'connected'])).data).toEqual([]);

    const refused = await run(['merchants', 'reject', merchant.body.id, '--reason', 'too late']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(JSON.parse(refused.stderr).error.code).toBe('invalid_state_transition');

    const missing = await run(['accounts', 'get', 'acct_doesnotexist']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr).error.code).toBe('resource_missing');
  });

  it('exits 2 with the usage on stderr for an unknown command, flag or missing argument', async () => {
    for (const args of [
      ['accounts', 'explode'],
      ['keys', 'create', '--account', 'acct_x', '--mode', 'test', '--colour', 'red'],
      ['keys', 'create', '--mode', 'test'],
      ['keys', 'roll'],
      ['keys', 'roll', 'key_x', '--grace-period', 'soon'],
      [],
    ]) {
      const result = await run(args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('Usage: npm run admin');
    }
    const help = await run(['help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('keys roll ID [--grace-period SECONDS]');
  });

  it('reads the operator token from DATA_DIR when OPERATOR_TOKEN is not set, through npm run', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'paygrid-cli-'));
    try {
      writeFileSync(join(dataDir, 'operator-token'), `${platform.operatorToken}\n`);
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      const result = await run(
        ['run', '--silent', 'admin', '--', 'accounts', 'list', '--limit', '1'],
        {
          OPERATOR_TOKEN: '',
          DATA_DIR: dataDir,
        },
        npm,
      );
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ object: 'list', url: '/admin/v1/accounts' });

      writeFileSync(join(dataDir, 'operator-token'), 'op_wrong_token_000000000000\n');
      const wrong = await run(['accounts', 'list'], { OPERATOR_TOKEN: '', DATA_DIR: dataDir });
      expect(wrong.code).toBe(1);
      expect(JSON.parse(wrong.stderr).error.code).toBe('invalid_api_key');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
