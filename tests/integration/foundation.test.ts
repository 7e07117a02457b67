// The foundation, end to end through the gateway, in whichever mode the project runs
// (embedded: PGlite + embedded bus; distributed: four processes, PostgreSQL, Kafka, Redis).

import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';

const MERCHANT = {
  business_name: 'Acme Ltd',
  email: 'ops@acme.test',
  country: 'gb',
  default_currency: 'gbp',
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

describe('health', () => {
  it('reports the gateway and every service as up', async () => {
    const { status, body } = await platform.api(undefined, 'GET', '/health');
    expect(status).toBe(200);
    expect(body.status).toBe('ok');
    expect(Object.keys(body.services).sort()).toEqual(['gateway', 'invoicing', 'payments', 'webhooks']);
    for (const name of ['payments', 'invoicing', 'webhooks']) {
      expect(body.services[name].checks.database).toBe('ok');
      expect(body.services[name].checks.bus).toBe(
        platform.mode === 'distributed' ? 'ok (kafka)' : 'ok (embedded)',
      );
    }
  });
});

describe('errors come back in the envelope', () => {
  it('answers an unknown route with 404 route_not_found and a request id', async () => {
    const response = await platform.api(account.testKey, 'GET', '/v1/no-such-thing');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('route_not_found');
    expect(response.body.error.request_id).toMatch(/^req_/);
    expect(response.headers.get('request-id')).toBe(response.body.error.request_id);
  });

  it('refuses a missing, malformed or unknown key with 401', async () => {
    const none = await platform.api(undefined, 'GET', '/v1/merchants');
    expect([none.status, none.body.error.code]).toEqual([401, 'authentication_required']);
    const malformed = await platform.api(undefined, 'GET', '/v1/merchants', undefined, {
      authorization: 'Basic abc',
    });
    expect([malformed.status, malformed.body.error.code]).toEqual([401, 'authentication_required']);
    const unknown = await platform.api('sk_test_00000000000000000000000000000000', 'GET', '/v1/merchants');
    expect([unknown.status, unknown.body.error.code]).toEqual([401, 'invalid_api_key']);
  });

  it('refuses unknown fields, bad JSON, non-JSON bodies and bad values with 4xx, changing nothing', async () => {
    const unknown = await platform.api(account.testKey, 'POST', '/v1/merchants', {
      ...MERCHANT,
      livemode: true,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({
      code: 'parameter_unknown',
      param: 'livemode',
      type: 'invalid_request_error',
    });

    const badJson = await platform.api(account.testKey, 'POST', '/v1/merchants', '{"business_name":', {});
    expect([badJson.status, badJson.body.error.code]).toEqual([400, 'invalid_json']);

    const text = await platform.api(account.testKey, 'POST', '/v1/merchants', 'hello', {
      'content-type': 'text/plain',
    });
    expect([text.status, text.body.error.code]).toEqual([415, 'unsupported_media_type']);

    const badEmail = await platform.api(account.testKey, 'POST', '/v1/merchants', {
      ...MERCHANT,
      email: 'nope',
    });
    expect(badEmail.body.error).toMatchObject({ code: 'parameter_invalid', param: 'email' });

    const currency = await platform.api(account.testKey, 'POST', '/v1/merchants', {
      ...MERCHANT,
      default_currency: 'XYZ',
    });
    expect([currency.status, currency.body.error.code, currency.body.error.param]).toEqual([
      400,
      'currency_unsupported',
      'default_currency',
    ]);

    const list = await platform.api(account.testKey, 'GET', '/v1/merchants?limit=100');
    expect(list.body.data).toHaveLength(0);
  });

  it('answers a body over 1 MiB with 413', async () => {
    const big = { business_name: 'x'.repeat(1024 * 1024 + 10) };
    const response = await platform.api(account.testKey, 'POST', '/v1/merchants', big);
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
  });
});

describe('an event written by one service reaches another', () => {
  it('records merchant onboarding events in the event log, each exactly once, in order', async () => {
    const created = await platform.api(account.testKey, 'POST', '/v1/merchants', MERCHANT);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      object: 'merchant',
      livemode: false,
      country: 'GB',
      default_currency: 'GBP',
      onboarding: { status: 'active', requirements_due: [] },
    });
    const merchantId: string = created.body.id;

    const events = await eventually(async () => {
      const list = await platform.api(
        account.testKey,
        'GET',
        '/v1/events?type=merchant.onboarding.updated&limit=100',
      );
      const mine = list.body.data.filter((e: any) => e.data.object.id === merchantId);
      return mine.length >= 2 ? mine : undefined;
    });
    // pending -> in_review -> active (sandbox decides at once); newest first.
    expect(events.map((e: any) => e.data.previous_attributes.onboarding.status)).toEqual([
      'in_review',
      'pending',
    ]);
    expect(events.map((e: any) => e.data.object.onboarding.status)).toEqual(['active', 'in_review']);
    expect(events[0]).toMatchObject({
      object: 'event',
      account: account.id,
      livemode: false,
      merchant: merchantId,
    });

    const one = await platform.api(account.testKey, 'GET', `/v1/events/${events[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(events[0]);

    // Give any duplicate delivery time to show up; there must be none.
    await new Promise((r) => setTimeout(r, 500));
    const again = await platform.api(account.testKey, 'GET', '/v1/events?limit=100');
    expect(again.body.data.filter((e: any) => e.data.object.id === merchantId)).toHaveLength(2);
  });

  it('refuses to blank a detail of an onboarded merchant with null', async () => {
    const created = await platform.api(account.testKey, 'POST', '/v1/merchants', MERCHANT);
    const blanked = await platform.api(account.testKey, 'POST', `/v1/merchants/${created.body.id}`, {
      email: null,
    });
    expect([blanked.status, blanked.body.error.param]).toEqual([400, 'email']);
    const after = await platform.api(account.testKey, 'GET', `/v1/merchants/${created.body.id}`);
    expect(after.body.email).toBe(MERCHANT.email);
    expect(after.body.onboarding.requirements_due).toEqual([]);
  });

  it('rejects a sandbox merchant with the documented magic email', async () => {
    const created = await platform.api(account.testKey, 'POST', '/v1/merchants', {
      ...MERCHANT,
      email: 'reject@acme.test',
    });
    expect(created.body.onboarding.status).toBe('rejected');
    expect(created.body.capabilities.card_payments).toBe('inactive');
  });
});

describe('tenancy', () => {
  it("answers another account's or the other mode's id with 404", async () => {
    const other = await platform.newAccount(['payments']);
    const mine = await platform.api(account.testKey, 'POST', '/v1/merchants', MERCHANT);
    const theirs = await platform.api(other.testKey, 'GET', `/v1/merchants/${mine.body.id}`);
    expect([theirs.status, theirs.body.error.code]).toEqual([404, 'resource_missing']);
    const live = await platform.api(account.liveKey, 'GET', `/v1/merchants/${mine.body.id}`);
    expect([live.status, live.body.error.code]).toEqual([404, 'resource_missing']);
    const liveList = await platform.api(account.liveKey, 'GET', '/v1/merchants');
    expect(liveList.body.data.map((m: any) => m.id)).not.toContain(mine.body.id);
  });

  it('refuses an endpoint outside the account groupings with 403 grouping_not_enabled', async () => {
    const invoicingOnly = await platform.newAccount(['invoicing']);
    const response = await platform.api(invoicingOnly.testKey, 'GET', '/v1/merchants');
    expect([response.status, response.body.error.code]).toEqual([403, 'grouping_not_enabled']);
  });
});

describe('keys', () => {
  it('stops accepting a key the moment it is revoked', async () => {
    const fresh = await platform.newAccount(['payments']);
    const ok = await platform.api(fresh.testKey, 'GET', '/v1/merchants');
    expect(ok.status).toBe(200);
    const keys = await platform.admin('GET', `/admin/v1/accounts/${fresh.id}/keys`);
    const testKey = keys.body.data.find((k: any) => !k.livemode);
    expect(testKey.secret).toBeUndefined();
    expect(testKey.redacted).toBe(`sk_test_...${fresh.testKey.slice(-4)}`);
    await platform.admin('POST', `/admin/v1/keys/${testKey.id}/revoke`);
    const after = await platform.api(fresh.testKey, 'GET', '/v1/merchants');
    expect([after.status, after.body.error.code]).toEqual([401, 'invalid_api_key']);
  });

  it('answers a suspended account with 403 account_suspended', async () => {
    const fresh = await platform.newAccount(['payments']);
    await platform.admin('POST', `/admin/v1/accounts/${fresh.id}/suspend`);
    const response = await platform.api(fresh.testKey, 'GET', '/v1/merchants');
    expect([response.status, response.body.error.code]).toEqual([403, 'account_suspended']);
    await platform.admin('POST', `/admin/v1/accounts/${fresh.id}/reactivate`);
    expect((await platform.api(fresh.testKey, 'GET', '/v1/merchants')).status).toBe(200);
  });

  it('refuses the admin API without the operator token', async () => {
    const response = await platform.api('not-the-token', 'GET', '/admin/v1/accounts/acct_12345678');
    expect(response.status).toBe(401);
  });
});

describe('pagination', () => {
  it('pages through a list newest first without gaps or repeats', async () => {
    const fresh = await platform.newAccount(['payments']);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const created = await platform.api(fresh.testKey, 'POST', '/v1/merchants', { business_name: `M${i}` });
      ids.push(created.body.id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await platform.api(
        fresh.testKey,
        'GET',
        `/v1/merchants?limit=3${cursor ? `&starting_after=${cursor}` : ''}`,
      );
      expect(page.body).toMatchObject({ object: 'list', url: '/v1/merchants' });
      seen.push(...page.body.data.map((m: any) => m.id));
      if (!page.body.has_more) break;
      cursor = page.body.data[page.body.data.length - 1].id;
    }
    expect(seen).toEqual([...ids].reverse());
    const before = await platform.api(fresh.testKey, 'GET', `/v1/merchants?limit=2&ending_before=${ids[2]}`);
    expect(before.body.data.map((m: any) => m.id)).toEqual([ids[4], ids[3]]);
    const foreign = await platform.api(account.testKey, 'GET', `/v1/merchants?starting_after=${ids[0]}`);
    expect(foreign.status).toBe(404);
    const both = await platform.api(
      fresh.testKey,
      'GET',
      `/v1/merchants?starting_after=${ids[0]}&ending_before=${ids[1]}`,
    );
    expect(both.status).toBe(400);
  });
});
