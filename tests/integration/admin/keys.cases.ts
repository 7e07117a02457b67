// API keys through the admin API: a restricted key's scopes (write implying read) and their
// validation, expiry, rolling with and without a grace period, last_used_at, and get and list
// without secrets.

import { eventually } from '../../support/platform';
import { MERCHANT, type AdminContext } from './admin.helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sleepUntil = (at: number) => sleep(Math.max(0, at - Date.now()));

export function keyCases(ctx: () => AdminContext) {
  async function createKey(accountId: string, body: Record<string, unknown>) {
    const response = await ctx().platform.admin('POST', `/admin/v1/accounts/${accountId}/keys`, body);
    if (response.status !== 200) throw new Error(`key creation failed: ${JSON.stringify(response.body)}`);
    return response.body;
  }

  describe('keys', () => {
    it('gives a restricted key only its scopes, write implying read', async () => {
      const { platform, account } = ctx();
      const writer = await createKey(account.id, {
        mode: 'test',
        kind: 'restricted',
        scopes: ['merchants:write'],
        name: 'onboarding bot',
      });
      expect(writer).toMatchObject({ object: 'api_key', kind: 'restricted', scopes: ['merchants:write'] });
      expect(writer.secret).toMatch(/^rk_test_/);
      expect((await platform.api(writer.secret, 'POST', '/v1/merchants', MERCHANT)).status).toBe(200);
      expect((await platform.api(writer.secret, 'GET', '/v1/merchants')).status).toBe(200);
      const events = await platform.api(writer.secret, 'GET', '/v1/events');
      expect([events.status, events.body.error.code]).toEqual([403, 'insufficient_scope']);
      expect(events.body.error.message).toContain('events:read');

      const reader = await createKey(account.id, {
        mode: 'test',
        kind: 'restricted',
        scopes: ['merchants:read'],
      });
      expect((await platform.api(reader.secret, 'GET', '/v1/merchants')).status).toBe(200);
      const write = await platform.api(reader.secret, 'POST', '/v1/merchants', MERCHANT);
      expect([write.status, write.body.error.code]).toEqual([403, 'insufficient_scope']);
      expect(write.body.error.message).toContain('merchants:write');
    });

    it('refuses invalid scopes with 400 naming the scope', async () => {
      const { platform, account } = ctx();
      const unknown = await platform.admin('POST', `/admin/v1/accounts/${account.id}/keys`, {
        mode: 'test',
        kind: 'restricted',
        scopes: ['merchants:read', 'merchants:fly'],
      });
      expect([unknown.status, unknown.body.error.code, unknown.body.error.param]).toEqual([
        400,
        'parameter_invalid',
        'scopes',
      ]);
      expect(unknown.body.error.message).toContain('merchants:fly');

      const invoicingOnly = await platform.newAccount(['invoicing']);
      const outside = await platform.admin('POST', `/admin/v1/accounts/${invoicingOnly.id}/keys`, {
        mode: 'test',
        kind: 'restricted',
        scopes: ['merchants:read'],
      });
      expect([outside.status, outside.body.error.param]).toEqual([400, 'scopes']);
      expect(outside.body.error.message).toContain('merchants:read');

      const none = await platform.admin('POST', `/admin/v1/accounts/${account.id}/keys`, {
        mode: 'test',
        kind: 'restricted',
      });
      expect(none.body.error).toMatchObject({ code: 'parameter_missing', param: 'scopes' });
    });

    it('accepts a key until its expires_at, then answers 401 invalid_api_key', async () => {
      const { platform, account } = ctx();
      const expiresAt = Date.now() + 1500;
      const key = await createKey(account.id, {
        mode: 'test',
        kind: 'secret',
        expires_at: new Date(expiresAt).toISOString(),
      });
      expect(Date.parse(key.expires_at)).toBe(expiresAt);
      expect((await platform.api(key.secret, 'GET', '/v1/merchants')).status).toBe(200);
      await sleepUntil(expiresAt + 100);
      const expired = await platform.api(key.secret, 'GET', '/v1/merchants');
      expect([expired.status, expired.body.error.code]).toEqual([401, 'invalid_api_key']);

      const past = await platform.admin('POST', `/admin/v1/accounts/${account.id}/keys`, {
        mode: 'test',
        kind: 'secret',
        expires_at: new Date(Date.now() - 1000).toISOString(),
      });
      expect(past.body.error).toMatchObject({ code: 'parameter_invalid', param: 'expires_at' });
      const garbage = await platform.admin('POST', `/admin/v1/accounts/${account.id}/keys`, {
        mode: 'test',
        kind: 'secret',
        expires_at: 'tomorrow',
      });
      expect(garbage.body.error).toMatchObject({ code: 'parameter_invalid', param: 'expires_at' });
    });

    it('rolls with a grace period: both secrets work until it ends, then only the new one', async () => {
      const { platform, account } = ctx();
      const old = await createKey(account.id, {
        mode: 'test',
        kind: 'restricted',
        scopes: ['events:read', 'merchants:read'],
        name: 'reporting',
      });
      expect((await platform.api(old.secret, 'GET', '/v1/merchants')).status).toBe(200);

      const before = Date.now();
      const rolled = await platform.admin('POST', `/admin/v1/keys/${old.id}/roll`, {
        grace_period_seconds: 2,
      });
      expect(rolled.status).toBe(200);
      expect(rolled.body).toMatchObject({
        object: 'api_key',
        account: account.id,
        livemode: false,
        kind: 'restricted',
        scopes: ['events:read', 'merchants:read'],
        name: 'reporting',
        expires_at: null,
        revoked_at: null,
        rolled_to: null,
      });
      expect(rolled.body.id).not.toBe(old.id);
      expect(rolled.body.secret).toMatch(/^rk_test_/);
      expect(rolled.body.secret).not.toBe(old.secret);

      const oldAfter = await platform.admin('GET', `/admin/v1/keys/${old.id}`);
      expect(oldAfter.body.rolled_to).toBe(rolled.body.id);
      expect(oldAfter.body.secret).toBeUndefined();
      const graceEnd = Date.parse(oldAfter.body.expires_at);
      expect(graceEnd).toBeGreaterThanOrEqual(before + 2000 - 50);
      expect(graceEnd).toBeLessThanOrEqual(Date.now() + 2000 + 50);

      expect((await platform.api(old.secret, 'GET', '/v1/merchants')).status).toBe(200);
      expect((await platform.api(rolled.body.secret, 'GET', '/v1/merchants')).status).toBe(200);
      await sleepUntil(graceEnd + 100);
      const expired = await platform.api(old.secret, 'GET', '/v1/merchants');
      expect([expired.status, expired.body.error.code]).toEqual([401, 'invalid_api_key']);
      expect((await platform.api(rolled.body.secret, 'GET', '/v1/merchants')).status).toBe(200);
    });

    it('rolls without a grace period: the old secret stops at once; only active keys roll', async () => {
      const { platform, account } = ctx();
      const old = await createKey(account.id, { mode: 'live', kind: 'secret' });
      expect((await platform.api(old.secret, 'GET', '/v1/merchants')).status).toBe(200);
      const rolled = await platform.admin('POST', `/admin/v1/keys/${old.id}/roll`);
      expect(rolled.status).toBe(200);
      expect(rolled.body).toMatchObject({ livemode: true, kind: 'secret' });
      expect(rolled.body.secret).toMatch(/^sk_live_/);
      const stale = await platform.api(old.secret, 'GET', '/v1/merchants');
      expect([stale.status, stale.body.error.code]).toEqual([401, 'invalid_api_key']);
      expect((await platform.api(rolled.body.secret, 'GET', '/v1/merchants')).status).toBe(200);

      const again = await platform.admin('POST', `/admin/v1/keys/${old.id}/roll`, {});
      expect([again.status, again.body.error.code]).toEqual([409, 'invalid_state_transition']);

      await platform.admin('POST', `/admin/v1/keys/${rolled.body.id}/revoke`);
      const revoked = await platform.admin('POST', `/admin/v1/keys/${rolled.body.id}/roll`, {});
      expect([revoked.status, revoked.body.error.code]).toEqual([409, 'invalid_state_transition']);

      const missing = await platform.admin('POST', '/admin/v1/keys/key_doesnotexist/roll', {});
      expect([missing.status, missing.body.error.code]).toEqual([404, 'resource_missing']);
      for (const grace of [-1, 7 * 24 * 3600 + 1, 1.5, '10']) {
        const bad = await platform.admin('POST', `/admin/v1/keys/${old.id}/roll`, {
          grace_period_seconds: grace,
        });
        expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'grace_period_seconds' });
      }
    });

    it('records last_used_at after a call', async () => {
      const { platform, account } = ctx();
      const key = await createKey(account.id, { mode: 'test', kind: 'secret' });
      const fresh = await platform.admin('GET', `/admin/v1/keys/${key.id}`);
      expect(fresh.body.last_used_at).toBeNull();
      const before = Date.now();
      expect((await platform.api(key.secret, 'GET', '/v1/merchants')).status).toBe(200);
      const used = await eventually(async () => {
        const got = await platform.admin('GET', `/admin/v1/keys/${key.id}`);
        return got.body.last_used_at ? got.body : undefined;
      }, 5000);
      expect(Date.parse(used.last_used_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(used.last_used_at)).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it('gets and lists keys without their secrets, paginated', async () => {
      const { platform } = ctx();
      const fresh = await platform.newAccount(['payments']);
      const extra = await createKey(fresh.id, {
        mode: 'test',
        kind: 'restricted',
        scopes: ['merchants:read'],
      });
      const got = await platform.admin('GET', `/admin/v1/keys/${extra.id}`);
      expect(got.body).toMatchObject({ id: extra.id, account: fresh.id, last4: extra.secret.slice(-4) });
      expect(got.body.secret).toBeUndefined();
      expect((await platform.admin('GET', '/admin/v1/keys/key_doesnotexist')).status).toBe(404);

      const page = await platform.admin('GET', `/admin/v1/accounts/${fresh.id}/keys?limit=2`);
      expect(page.body).toMatchObject({ object: 'list', has_more: true });
      expect(page.body.data[0].id).toBe(extra.id);
      const rest = await platform.admin(
        'GET',
        `/admin/v1/accounts/${fresh.id}/keys?starting_after=${page.body.data[1].id}`,
      );
      expect(rest.body).toMatchObject({ has_more: false });
      expect(rest.body.data).toHaveLength(1);
      expect([...page.body.data, ...rest.body.data].every((k: any) => k.secret === undefined)).toBe(true);
      expect((await platform.admin('GET', '/admin/v1/accounts/acct_doesnotexist/keys')).status).toBe(404);
    });
  });
}
