// The operator's admin API end to end through the gateway, in both modes: accounts (list,
// update), keys (scopes, expiry, roll with and without grace, last_used_at) and merchant
// onboarding decisions, which the gateway forwards to the payments service.

import { signContext } from '@paygrid/platform';
import {
  eventually,
  startPlatform,
  type DistributedPlatform,
  type Platform,
  type TestAccount,
} from '../support/platform';

const MERCHANT = {
  business_name: 'Acme Ltd',
  email: 'ops@acme.test',
  country: 'GB',
  default_currency: 'GBP',
  business_type: 'company',
};

let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount();
});

afterAll(async () => {
  await platform?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sleepUntil = (at: number) => sleep(Math.max(0, at - Date.now()));

async function createKey(accountId: string, body: Record<string, unknown>) {
  const response = await platform.admin('POST', `/admin/v1/accounts/${accountId}/keys`, body);
  if (response.status !== 200) throw new Error(`key creation failed: ${JSON.stringify(response.body)}`);
  return response.body;
}

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

describe('keys', () => {
  it('gives a restricted key only its scopes, write implying read', async () => {
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
    const old = await createKey(account.id, {
      mode: 'test',
      kind: 'restricted',
      scopes: ['events:read', 'merchants:read'],
      name: 'reporting',
    });
    expect((await platform.api(old.secret, 'GET', '/v1/merchants')).status).toBe(200);

    const before = Date.now();
    const rolled = await platform.admin('POST', `/admin/v1/keys/${old.id}/roll`, { grace_period_seconds: 2 });
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
    const fresh = await platform.newAccount(['payments']);
    const extra = await createKey(fresh.id, { mode: 'test', kind: 'restricted', scopes: ['merchants:read'] });
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

describe('merchant onboarding decisions', () => {
  async function liveMerchant(key = account.liveKey) {
    const created = await platform.api(key, 'POST', '/v1/merchants', MERCHANT);
    expect(created.status).toBe(200);
    // Live onboarding waits for the operator.
    expect(created.body).toMatchObject({ livemode: true, onboarding: { status: 'in_review' } });
    return created.body.id as string;
  }

  it('approves, restricts and re-approves a live merchant, each with its event', async () => {
    const id = await liveMerchant();
    const approved = await platform.admin('POST', `/admin/v1/merchants/${id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.headers.get('request-id')).toMatch(/^req_/);
    expect(approved.body).toMatchObject({
      id,
      object: 'merchant',
      livemode: true,
      onboarding: { status: 'active', reason: null },
      capabilities: { card_payments: 'active' },
    });
    expect(approved.body.onboarding.decided_at).not.toBeNull();

    const event = await eventually(async () => {
      const list = await platform.api(
        account.liveKey,
        'GET',
        '/v1/events?type=merchant.onboarding.updated&limit=100',
      );
      return list.body.data.find(
        (e: any) => e.data.object.id === id && e.data.object.onboarding.status === 'active',
      );
    });
    expect(event).toMatchObject({ livemode: true, account: account.id, merchant: id });
    expect(event.data.previous_attributes).toEqual({ onboarding: { status: 'in_review' } });

    const restricted = await platform.admin('POST', `/admin/v1/merchants/${id}/restrict`, {
      reason: 'Chargeback ratio under review',
    });
    expect(restricted.body.onboarding).toMatchObject({
      status: 'restricted',
      reason: 'Chargeback ratio under review',
    });
    const seen = await platform.api(account.liveKey, 'GET', `/v1/merchants/${id}`);
    expect(seen.body.onboarding.status).toBe('restricted');

    const reapproved = await platform.admin('POST', `/admin/v1/merchants/${id}/approve`, {});
    expect(reapproved.body.onboarding).toMatchObject({ status: 'active', reason: null });

    const reject = await platform.admin('POST', `/admin/v1/merchants/${id}/reject`, { reason: 'no' });
    expect([reject.status, reject.body.error.code]).toEqual([409, 'invalid_state_transition']);
    expect(reject.body.error.request_id).toBe(reject.headers.get('request-id'));

    const history = await eventually(async () => {
      const list = await platform.api(
        account.liveKey,
        'GET',
        '/v1/events?type=merchant.onboarding.updated&limit=100',
      );
      const mine = list.body.data.filter((e: any) => e.data.object.id === id);
      return mine.length >= 4 ? mine : undefined;
    });
    // Newest first: pending -> in_review (on create) -> active -> restricted -> active; the 409 added none.
    expect(history.map((e: any) => e.data.object.onboarding.status)).toEqual([
      'active',
      'restricted',
      'active',
      'in_review',
    ]);
    expect(history.map((e: any) => e.data.previous_attributes.onboarding.status)).toEqual([
      'restricted',
      'active',
      'in_review',
      'pending',
    ]);
  });

  it('rejects a merchant in review, and refuses every other move with 409', async () => {
    const id = await liveMerchant();
    const restrictInReview = await platform.admin('POST', `/admin/v1/merchants/${id}/restrict`);
    expect([restrictInReview.status, restrictInReview.body.error.code]).toEqual([
      409,
      'invalid_state_transition',
    ]);

    const rejected = await platform.admin('POST', `/admin/v1/merchants/${id}/reject`, {
      reason: 'Incomplete documents',
    });
    expect(rejected.body.onboarding).toMatchObject({ status: 'rejected', reason: 'Incomplete documents' });
    for (const decision of ['approve', 'reject', 'restrict']) {
      const response = await platform.admin('POST', `/admin/v1/merchants/${id}/${decision}`);
      expect([response.status, response.body.error.code]).toEqual([409, 'invalid_state_transition']);
    }

    // A merchant with details missing is pending: nothing to decide yet.
    const pending = await platform.api(account.liveKey, 'POST', '/v1/merchants', { business_name: 'Half' });
    expect(pending.body.onboarding.status).toBe('pending');
    const early = await platform.admin('POST', `/admin/v1/merchants/${pending.body.id}/approve`);
    expect([early.status, early.body.error.code]).toEqual([409, 'invalid_state_transition']);
  });

  it('answers unknown merchants with 404 and bad bodies with 400', async () => {
    const missing = await platform.admin('POST', '/admin/v1/merchants/mer_doesnotexist/approve');
    expect([missing.status, missing.body.error.code]).toEqual([404, 'resource_missing']);
    const id = await liveMerchant();
    const unknown = await platform.admin('POST', `/admin/v1/merchants/${id}/approve`, { status: 'active' });
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'status' });
    const long = await platform.admin('POST', `/admin/v1/merchants/${id}/reject`, {
      reason: 'x'.repeat(501),
    });
    expect(long.body.error).toMatchObject({ code: 'parameter_invalid', param: 'reason' });
    const bogus = await platform.admin('POST', `/admin/v1/merchants/${id}/delete`);
    expect([bogus.status, bogus.body.error.code]).toEqual([404, 'route_not_found']);
    // Nothing above changed the merchant.
    const still = await platform.api(account.liveKey, 'GET', `/v1/merchants/${id}`);
    expect(still.body.onboarding.status).toBe('in_review');
  });

  it('keeps the internal decision route out of reach of API keys', async () => {
    const id = await liveMerchant();
    const viaV1 = await platform.api(account.liveKey, 'POST', `/v1/internal/merchants/${id}/decision`, {
      decision: 'approve',
    });
    expect([viaV1.status, viaV1.body.error.code]).toEqual([404, 'route_not_found']);
    const onGateway = await platform.api(account.liveKey, 'POST', `/internal/merchants/${id}/decision`, {
      decision: 'approve',
    });
    expect(onGateway.status).toBe(404);

    if (platform.mode === 'distributed') {
      // Straight to the payments service, signed like the gateway signs: only the operator's
      // context opens the route.
      const distributed = platform as DistributedPlatform;
      const url = `/internal/merchants/${id}/decision`;
      const call = (headers: Record<string, string>) =>
        fetch(`http://127.0.0.1:${distributed.ports.payments}${url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ decision: 'approve' }),
        });
      const secret = distributed.env.INTERNAL_SIGNING_SECRET;
      const apiContext = signContext(
        secret,
        {
          kind: 'api',
          account: account.id,
          account_name: 'Acme',
          livemode: true,
          key_id: 'key_12345678',
          scopes: ['merchants:write'],
          groupings: ['payments'],
          request_id: 'req_12345678',
          issued_at: Date.now(),
        },
        'POST',
        url,
      );
      const asApi = await call(apiContext);
      expect(asApi.status).toBe(403);
      expect((await asApi.json()).error.code).toBe('insufficient_scope');
      const unsigned = await call({});
      expect(unsigned.status).toBe(401);
      const asOperator = await call(
        signContext(
          secret,
          { kind: 'operator', request_id: 'req_12345679', issued_at: Date.now() },
          'POST',
          url,
        ),
      );
      expect(asOperator.status).toBe(200);
    }

    const after = await platform.api(account.liveKey, 'GET', `/v1/merchants/${id}`);
    expect(after.body.onboarding.status).toBe(platform.mode === 'distributed' ? 'active' : 'in_review');
  });
});
