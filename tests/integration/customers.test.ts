// Customers of the invoicing service, end to end through the gateway, in whichever mode the
// project runs. The billing history with real payment facts is covered against the embedded
// database in tests/embedded/customer-billing-history.test.ts: the public API cannot yet make
// a payment for a customer.

import { eventually, startPlatform, type Platform, type TestAccount } from '../support/platform';

const CUSTOMER = {
  name: 'Jenny Rosen',
  email: 'jenny@example.test',
  currency: 'gbp',
  address: { line1: '1 High Street', city: 'London', postal_code: 'N1 9GU', country: 'gb' },
  metadata: { tier: 'gold' },
};

let platform: Platform;
let account: TestAccount;

beforeAll(async () => {
  platform = await startPlatform();
  account = await platform.newAccount(['payments', 'invoicing']);
});

afterAll(async () => {
  await platform?.stop();
});

/** The account's customer.* events about `id`, oldest first, once `count` have arrived. */
async function customerEvents(key: string, id: string, count: number): Promise<any[]> {
  return eventually(async () => {
    const list = await platform.api(key, 'GET', '/v1/events?limit=100');
    const mine = list.body.data.filter((e: any) => e.type.startsWith('customer.') && e.data.object.id === id);
    return mine.length >= count ? mine.reverse() : undefined;
  });
}

describe.each(['test', 'live'] as const)('customers in %s mode', (mode) => {
  const key = () => (mode === 'test' ? account.testKey : account.liveKey);

  it('creates, retrieves, lists, updates and archives a customer, with an event for each change', async () => {
    const created = await platform.api(key(), 'POST', '/v1/customers', {
      ...CUSTOMER,
      external_id: `crm-${mode}-1`,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      object: 'customer',
      livemode: mode === 'live',
      name: 'Jenny Rosen',
      email: 'jenny@example.test',
      currency: 'GBP',
      external_id: `crm-${mode}-1`,
      address: {
        line1: '1 High Street',
        line2: null,
        city: 'London',
        postal_code: 'N1 9GU',
        state: null,
        country: 'GB',
      },
      metadata: { tier: 'gold' },
      deleted: false,
      deleted_at: null,
    });
    expect(created.body.id).toMatch(/^cus_/);
    expect(created.body.billing_summary).toBeUndefined();
    const id: string = created.body.id;

    const one = await platform.api(key(), 'GET', `/v1/customers/${id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      ...created.body,
      billing_summary: {
        total_invoiced: 0,
        total_paid: 0,
        balance_due: 0,
        currency: 'GBP',
        invoice_count: 0,
      },
    });

    const list = await platform.api(key(), 'GET', '/v1/customers?limit=100');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ object: 'list', url: '/v1/customers', has_more: false });
    expect(list.body.data.map((c: any) => c.id)).toContain(id);

    const byExternal = await platform.api(key(), 'GET', `/v1/customers?external_id=crm-${mode}-1`);
    expect(byExternal.body.data.map((c: any) => c.id)).toEqual([id]);
    const byEmail = await platform.api(key(), 'GET', '/v1/customers?email=JENNY@example.test&limit=100');
    expect(byEmail.body.data.map((c: any) => c.id)).toContain(id);
    const future = await platform.api(key(), 'GET', '/v1/customers?created[gt]=2999-01-01T00:00:00Z');
    expect(future.body.data).toEqual([]);

    const updated = await platform.api(key(), 'POST', `/v1/customers/${id}`, {
      name: 'Jenny Rosen-Smith',
      phone: '+44 20 7946 0000',
      metadata: { tier: 'platinum', region: 'eu' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'Jenny Rosen-Smith',
      phone: '+44 20 7946 0000',
      email: 'jenny@example.test',
      metadata: { tier: 'platinum', region: 'eu' },
    });

    const archived = await platform.api(key(), 'DELETE', `/v1/customers/${id}`);
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ id, object: 'customer', deleted: true });
    expect(archived.body.deleted_at).not.toBeNull();

    const afterList = await platform.api(key(), 'GET', '/v1/customers?limit=100');
    expect(afterList.body.data.map((c: any) => c.id)).not.toContain(id);
    const withArchived = await platform.api(key(), 'GET', '/v1/customers?limit=100&include_archived=true');
    expect(withArchived.body.data.map((c: any) => c.id)).toContain(id);
    const stillReadable = await platform.api(key(), 'GET', `/v1/customers/${id}`);
    expect([stillReadable.status, stillReadable.body.deleted]).toEqual([200, true]);
    // Its history stays readable too: the invoices and payments that name it are still records.
    const history = await platform.api(key(), 'GET', `/v1/customers/${id}/billing-history`);
    expect([history.status, history.body.object, history.body.url]).toEqual([
      200,
      'list',
      `/v1/customers/${id}/billing-history`,
    ]);

    const refused = await platform.api(key(), 'POST', `/v1/customers/${id}`, { name: 'Nope' });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'invalid_state_transition']);

    const events = await customerEvents(key(), id, 3);
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'customer.updated', 'customer.deleted']);
    expect(events[0]).toMatchObject({ object: 'event', account: account.id, livemode: mode === 'live' });
    expect(events[1].data.previous_attributes).toEqual({
      name: 'Jenny Rosen',
      phone: null,
      metadata: { tier: 'gold', region: null },
    });
    expect(events[1].data.object.name).toBe('Jenny Rosen-Smith');
    expect(events[2].data.object.deleted).toBe(true);
  });

  it('keeps external_id unique: 409 resource_conflict naming the field, free again once archived', async () => {
    const externalId = `dup-${mode}-${Date.now()}`;
    const first = await platform.api(key(), 'POST', '/v1/customers', { name: 'A', external_id: externalId });
    expect(first.status).toBe(200);
    const second = await platform.api(key(), 'POST', '/v1/customers', { name: 'B', external_id: externalId });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'resource_conflict', param: 'external_id' });
    expect(second.body.error.message).toContain('external_id');

    const other = await platform.api(key(), 'POST', '/v1/customers', { name: 'C' });
    const clash = await platform.api(key(), 'POST', `/v1/customers/${other.body.id}`, {
      external_id: externalId,
    });
    expect([clash.status, clash.body.error.code, clash.body.error.param]).toEqual([
      409,
      'resource_conflict',
      'external_id',
    ]);

    expect((await platform.api(key(), 'DELETE', `/v1/customers/${first.body.id}`)).status).toBe(200);
    const reused = await platform.api(key(), 'POST', '/v1/customers', { name: 'D', external_id: externalId });
    expect(reused.status).toBe(200);
  });
});

describe('validation and tenancy', () => {
  it('refuses unknown fields, bad e-mails and currencies, oversized metadata and null on update', async () => {
    const unknown = await platform.api(account.testKey, 'POST', '/v1/customers', {
      ...CUSTOMER,
      livemode: true,
    });
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'livemode' });
    expect(unknown.status).toBe(400);

    const badEmail = await platform.api(account.testKey, 'POST', '/v1/customers', { email: 'nope' });
    expect([badEmail.status, badEmail.body.error.code, badEmail.body.error.param]).toEqual([
      400,
      'parameter_invalid',
      'email',
    ]);
    const currency = await platform.api(account.testKey, 'POST', '/v1/customers', { currency: 'XYZ' });
    expect([currency.status, currency.body.error.code]).toEqual([400, 'currency_unsupported']);
    const metadata = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    const tooMuch = await platform.api(account.testKey, 'POST', '/v1/customers', { metadata });
    expect([tooMuch.status, tooMuch.body.error.param]).toEqual([400, 'metadata']);

    const created = await platform.api(account.testKey, 'POST', '/v1/customers', CUSTOMER);
    const blanked = await platform.api(account.testKey, 'POST', `/v1/customers/${created.body.id}`, {
      email: null,
    });
    expect([blanked.status, blanked.body.error.param]).toEqual([400, 'email']);
    const after = await platform.api(account.testKey, 'GET', `/v1/customers/${created.body.id}`);
    expect(after.body.email).toBe(CUSTOMER.email);
  });

  it("answers another account's and the other mode's customer with 404", async () => {
    const mine = await platform.api(account.testKey, 'POST', '/v1/customers', CUSTOMER);
    const other = await platform.newAccount(['invoicing']);
    for (const [key, method, path] of [
      [other.testKey, 'GET', `/v1/customers/${mine.body.id}`],
      [other.testKey, 'POST', `/v1/customers/${mine.body.id}`],
      [other.testKey, 'DELETE', `/v1/customers/${mine.body.id}`],
      [other.testKey, 'GET', `/v1/customers/${mine.body.id}/billing-history`],
      [account.liveKey, 'GET', `/v1/customers/${mine.body.id}`],
    ] as const) {
      const response = await platform.api(key, method, path, method === 'POST' ? { name: 'x' } : undefined);
      expect([method, path, response.status, response.body.error.code]).toEqual([
        method,
        path,
        404,
        'resource_missing',
      ]);
    }
    const theirList = await platform.api(other.testKey, 'GET', '/v1/customers?limit=100');
    expect(theirList.body.data).toEqual([]);
  });

  it('refuses a payments-only account with 403 grouping_not_enabled', async () => {
    const paymentsOnly = await platform.newAccount(['payments']);
    for (const [method, path] of [
      ['GET', '/v1/customers'],
      ['POST', '/v1/customers'],
    ] as const) {
      const response = await platform.api(
        paymentsOnly.testKey,
        method,
        path,
        method === 'POST' ? CUSTOMER : undefined,
      );
      expect([response.status, response.body.error.code]).toEqual([403, 'grouping_not_enabled']);
    }
  });

  it('pages an empty billing history for a customer without payments', async () => {
    const created = await platform.api(account.testKey, 'POST', '/v1/customers', CUSTOMER);
    const history = await platform.api(
      account.testKey,
      'GET',
      `/v1/customers/${created.body.id}/billing-history`,
    );
    expect(history.status).toBe(200);
    expect(history.body).toEqual({
      object: 'list',
      data: [],
      has_more: false,
      url: `/v1/customers/${created.body.id}/billing-history`,
    });
  });
});
