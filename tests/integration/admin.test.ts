// The operator's admin API end to end through the gateway, in both modes: accounts (list,
// update), keys (scopes, expiry, roll with and without grace, last_used_at) and merchant
// onboarding decisions, which the gateway forwards to the payments service.
//
// Keys and merchant decisions live in admin/ and run here, after the account cases, against
// one platform: each test file that starts one costs seconds of CPU per mode, so the suite
// stays one file.

import { startPlatform, type Platform, type TestAccount } from '../support/platform';
import type { AdminContext } from './admin/admin.helpers';
import { keyCases } from './admin/keys.cases';
import { merchantDecisionCases } from './admin/merchants.cases';

let platform: Platform;
let account: TestAccount;
const ctx = (): AdminContext => ({ platform, account });

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount();
});

afterAll(async () => {
  await platform?.stop();
});

describe('operator authentication', () => {
  it('refuses a missing or wrong operator token with 401 on every admin route', async () => {
    const routes: [string, string][] = [
      ['GET', '/admin/v1/accounts'],
      ['POST', `/admin/v1/accounts/${account.id}`],
      ['GET', '/admin/v1/keys/key_12345678'],
      ['POST', '/admin/v1/keys/key_12345678/roll'],
      ['POST', '/admin/v1/merchants/mer_12345678/approve'],
    ];
    for (const [method, path] of routes) {
      const body = method === 'POST' ? {} : undefined;
      const none = await platform.api(undefined, method, path, body);
      expect([none.status, none.body.error.code]).toEqual([401, 'authentication_required']);
      const wrong = await platform.api(`${platform.operatorToken}x`, method, path, body);
      expect([wrong.status, wrong.body.error.code]).toEqual([401, 'invalid_api_key']);
      const apiKey = await platform.api(account.liveKey, method, path, body);
      expect([apiKey.status, apiKey.body.error.code]).toEqual([401, 'invalid_api_key']);
    }
  });
});

describe('accounts', () => {
  it('lists accounts newest first with cursor pagination and a status filter', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await platform.admin('POST', '/admin/v1/accounts', {
        name: `List ${i}`,
        groupings: ['payments'],
      });
      ids.push(created.body.id);
    }
    const first = await platform.admin('GET', '/admin/v1/accounts?limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'list', has_more: true, url: '/admin/v1/accounts' });
    expect(first.body.data.map((a: any) => a.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.data[0]).toMatchObject({ object: 'account', name: 'List 2', groupings: ['payments'] });

    const next = await platform.admin('GET', `/admin/v1/accounts?limit=1&starting_after=${ids[1]}`);
    expect(next.body.data.map((a: any) => a.id)).toEqual([ids[0]]);
    const before = await platform.admin('GET', `/admin/v1/accounts?limit=5&ending_before=${ids[0]}`);
    expect(before.body.data.map((a: any) => a.id)).toEqual([ids[2], ids[1]]);

    await platform.admin('POST', `/admin/v1/accounts/${ids[1]}/suspend`);
    const suspended = await platform.admin('GET', '/admin/v1/accounts?status=suspended&limit=100');
    expect(suspended.body.data.map((a: any) => a.id)).toEqual([ids[1]]);

    const badLimit = await platform.admin('GET', '/admin/v1/accounts?limit=0');
    expect(badLimit.body.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
    const unknownCursor = await platform.admin('GET', '/admin/v1/accounts?starting_after=acct_doesnotexist');
    expect([unknownCursor.status, unknownCursor.body.error.code]).toEqual([404, 'resource_missing']);
  });

  it('updates name, metadata and the rate limit (null clears it), validating every field', async () => {
    const created = await platform.admin('POST', '/admin/v1/accounts', {
      name: 'Before',
      groupings: ['payments'],
      metadata: { tier: 'gold' },
    });
    const id = created.body.id;
    expect(created.body.metadata).toEqual({ tier: 'gold' });

    const updated = await platform.admin('POST', `/admin/v1/accounts/${id}`, {
      name: 'After',
      rate_limit_per_second: 40,
      metadata: { region: 'eu' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id,
      name: 'After',
      rate_limit_per_second: 40,
      metadata: { tier: 'gold', region: 'eu' },
    });
    expect(Date.parse(updated.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.body.updated_at));

    const cleared = await platform.admin('POST', `/admin/v1/accounts/${id}`, {
      rate_limit_per_second: null,
      metadata: { tier: '' },
    });
    expect(cleared.body).toMatchObject({
      name: 'After',
      rate_limit_per_second: null,
      metadata: { region: 'eu' },
    });
    expect((await platform.admin('GET', `/admin/v1/accounts/${id}`)).body).toEqual(cleared.body);

    const invalid: [Record<string, unknown>, string, string][] = [
      [{ name: null }, 'parameter_invalid', 'name'],
      [{ name: '' }, 'parameter_invalid', 'name'],
      [{ groupings: [] }, 'parameter_invalid', 'groupings'],
      [{ groupings: ['banking'] }, 'parameter_invalid', 'groupings'],
      [{ rate_limit_per_second: 0 }, 'parameter_invalid', 'rate_limit_per_second'],
      [{ rate_limit_per_second: 2.5 }, 'parameter_invalid', 'rate_limit_per_second'],
      [{ metadata: { k: 1 } }, 'parameter_invalid', 'metadata'],
      [{ status: 'suspended' }, 'parameter_unknown', 'status'],
    ];
    for (const [body, code, param] of invalid) {
      const response = await platform.admin('POST', `/admin/v1/accounts/${id}`, body);
      expect([response.status, response.body.error]).toEqual([400, expect.objectContaining({ code, param })]);
    }
    const missing = await platform.admin('POST', '/admin/v1/accounts/acct_doesnotexist', { name: 'x' });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'resource_missing']);
  });

  it('applies a groupings change to the very next request', async () => {
    const fresh = await platform.newAccount(['payments', 'invoicing']);
    expect((await platform.api(fresh.testKey, 'GET', '/v1/merchants')).status).toBe(200);

    const narrowed = await platform.admin('POST', `/admin/v1/accounts/${fresh.id}`, {
      groupings: ['invoicing'],
    });
    expect(narrowed.body.groupings).toEqual(['invoicing']);
    const refused = await platform.api(fresh.testKey, 'GET', '/v1/merchants');
    expect([refused.status, refused.body.error.code]).toEqual([403, 'grouping_not_enabled']);
    expect((await platform.api(fresh.testKey, 'GET', '/v1/events')).status).toBe(200);

    await platform.admin('POST', `/admin/v1/accounts/${fresh.id}`, { groupings: ['payments'] });
    expect((await platform.api(fresh.testKey, 'GET', '/v1/merchants')).status).toBe(200);
  });
});

keyCases(ctx);
merchantDecisionCases(ctx);
