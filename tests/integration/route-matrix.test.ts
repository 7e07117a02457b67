// The security matrix, generated from the OpenAPI document the running platform serves. For
// EVERY operation in /v1/openapi.json: no key -> 401, revoked key -> 401, an object of the
// other mode or of another account -> 404, a key without the scope -> 403, an account without
// the grouping -> 403, an unknown field -> 400; and the happy call, whose answer must match
// the document's response schema (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it). The
// document itself must list exactly the /v1 routes the services serve, so a route added
// without @Operation fails here (and in the service, which refuses to build its fragment).

import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {
  GROUPINGS,
  groupingAllows,
  ROUTE_TABLE,
  routeOwner,
  SCOPE_RESOURCES,
  type RouteOwner,
  type ServiceName,
} from '@paygrid/contracts';
import {
  eventually,
  startPlatform,
  type ApiResponse,
  type Platform,
  type TestAccount,
} from '../support/platform';
import { payPage } from '../support/pages';

interface Operation {
  method: string;
  path: string;
  op: any;
  owner: RouteOwner;
  label: string;
}

const DOC_ID = 'https://paygrid.invalid/v1/openapi.json';
const UNKNOWN = 'paygrid_unknown_field';

let platform: Platform;
let doc: any;
let operations: Operation[];
let ajv: Ajv2020;
let account: TestAccount;
/** A succeeded test payment (POST /v1/transactions/test-helpers/payments) for refund calls. */
let refundablePayment: string | undefined;
/** A customer per mode, for examples that name one (invoices, estimates, subscriptions). */
const customers: Partial<Record<'test' | 'live', string>> = {};
const ids: Record<'test' | 'live', Map<string, string>> = { test: new Map(), live: new Map() };

/** Calls the API, waiting out a 429 (the suite runs many calls per key in a short time). */
async function call(
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiResponse> {
  for (let attempt = 0; ; attempt++) {
    const response = await platform.api(key, method, path, body);
    if (response.status !== 429 || attempt >= 5) return response;
    const wait = Number(response.headers.get('retry-after') ?? '1');
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

const resolve = (node: any): any =>
  node?.$ref
    ? node.$ref
        .split('/')
        .slice(1)
        .reduce((at: any, part: string) => at[part], doc)
    : node;

const validators = new Map<string, ReturnType<Ajv2020['compile']>>();

function validate(schema: { $ref: string }, value: unknown): string[] {
  let check = validators.get(schema.$ref);
  if (!check) {
    check = ajv.compile({ $ref: `${DOC_ID}${schema.$ref}` });
    validators.set(schema.$ref, check);
  }
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** Asserts the error envelope of the document and the code, naming the operation on failure. */
function expectError(op: Operation, response: ApiResponse, status: number, code: string): void {
  expect({ op: op.label, status: response.status, code: response.body?.error?.code }).toEqual({
    op: op.label,
    status,
    code,
  });
  expect({
    op: op.label,
    problems: validate({ $ref: '#/components/schemas/ErrorEnvelope' }, response.body),
  }).toEqual({ op: op.label, problems: [] });
  expect(response.headers.get('request-id')).toBe(response.body.error.request_id);
}

const requestBody = (op: Operation) => op.op.requestBody?.content?.['application/json']?.schema;
const hasQuery = (op: Operation) => (op.op.parameters ?? []).some((p: any) => resolve(p).in === 'query');
const hasId = (op: Operation) => op.path.includes('{id}');

/** A minimal valid body: the first example of the operation's request schema. */
function exampleBody(op: Operation, mode: 'test' | 'live' = 'test'): unknown {
  const schema = requestBody(op);
  if (!schema) return undefined;
  const example = resolve(schema).examples?.[0];
  if (example === undefined) throw new Error(`${op.label}: the request schema has no example`);
  // A refund's example names a transaction no account has: use the suite's test payment.
  if (op.label === 'POST /v1/refunds' && refundablePayment)
    return { ...example, transaction: refundablePayment };
  // Examples naming a customer get the suite's customer of the key's mode.
  if (typeof example.customer === 'string' && example.customer.startsWith('cus_') && customers[mode])
    return { ...example, customer: customers[mode] };
  return example;
}

/**
 * Actions on one object (`POST /v1/<resource>/{id}/<action>`) change its state, so each
 * happy call gets a fresh object (the create example's state), first moved by the actions
 * listed here when it needs another state.
 */
const isAction = (op: Operation) => op.method === 'post' && /\{id\}\/[a-z-]+$/.test(op.path);
const PREPARE: Record<string, string[]> = {
  'POST /v1/invoices/{id}/pay': ['finalize'],
  'POST /v1/invoices/{id}/void': ['finalize'],
  'POST /v1/invoices/{id}/mark-uncollectible': ['finalize'],
  'POST /v1/estimates/{id}/accept': ['send'],
  'POST /v1/estimates/{id}/decline': ['send'],
  'POST /v1/estimates/{id}/convert': ['send', 'accept'],
  'POST /v1/subscriptions/{id}/resume': ['pause'],
  // An e-invoice is made of a finalized invoice (and the seller's profile, set in beforeAll).
  'GET /v1/invoices/{id}/ubl': ['finalize'],
};

/**
 * Objects no live-mode API call can create: live payments come only from a processor (the
 * hosted checkout), and refunds and mandates need one. Their "other mode's object" check uses a
 * well-formed id that no live object has; the test-mode object is still checked against
 * the live key and another account.
 */
const TEST_MODE_ONLY: Record<string, string> = {
  transactions: 'txn',
  refunds: 're',
  disputes: 'dp',
  mandates: 'mdt',
  'test-clocks': 'clock',
};

/** An object of the operation's resource, in the key's mode: created, or found in the list. */
async function objectId(op: Operation, mode: 'test' | 'live', key: string): Promise<string> {
  const prefix = op.owner.prefix;
  const known = ids[mode].get(prefix);
  if (known) return known;
  if (mode === 'live' && TEST_MODE_ONLY[prefix]) return `${TEST_MODE_ONLY[prefix]}_00000000nolivemode`;
  const collection = `/v1/${prefix}`;
  const create = operations.find((o) => o.method === 'post' && o.path === collection);
  let id: string;
  if (create) {
    const created = await call(key, 'POST', collection, exampleBody(create, mode));
    expect({ op: create.label, status: created.status }).toEqual({ op: create.label, status: 200 });
    id = created.body.id;
  } else {
    // Objects without a create operation (events) come from the others: create one of each.
    const others = operations.filter(
      (o) => o.method === 'post' && !o.path.includes('{') && o.owner.prefix !== prefix,
    );
    for (const other of others) {
      await objectId(other, mode, key);
    }
    const list = operations.find((o) => o.method === 'get' && o.path === collection);
    if (!list) throw new Error(`${op.label}: no create or list operation gives a ${prefix} id`);
    id = await eventually(async () => (await call(key, 'GET', collection)).body?.data?.[0]?.id);
  }
  ids[mode].set(prefix, id);
  return id;
}

async function pathFor(op: Operation, mode: 'test' | 'live', key: string): Promise<string> {
  const unknownParams = (op.path.match(/\{(\w+)\}/g) ?? []).filter(
    (p) => p !== '{id}' && p !== '{delivery_id}',
  );
  if (unknownParams.length)
    throw new Error(`${op.label}: teach this suite the path parameters ${unknownParams}`);
  // A receipt is a succeeded payment's (invoicing issues it from payment.succeeded): the suite's
  // payment, whatever transaction (a refund) the list shows first.
  const id =
    op.label === RECEIPT && mode === 'test' && refundablePayment
      ? refundablePayment
      : await objectId(op, mode, key);
  const path = hasId(op) ? op.path.replace('{id}', id) : op.path;
  if (!path.includes('{delivery_id}')) return path;
  // A webhook delivery of the endpoint: its test event's.
  const delivery = await call(key, 'POST', `${path.split('/deliveries/')[0]}/test`, {});
  expect({ op: op.label, status: delivery.status }).toEqual({ op: op.label, status: 200 });
  return path.replace('{delivery_id}', delivery.body.id);
}

const RECEIPT = 'GET /v1/transactions/{id}/receipt';

/**
 * The sandbox's mandate test helper runs a recurring mandate's schedule: its happy call needs a
 * mandate made by a recurring link's hosted checkout (the test helper's payments save on_demand
 * ones, which have no schedule).
 */
const MANDATE_CHARGE = 'POST /v1/mandates/{id}/test-helpers/charge';
async function recurringMandate(): Promise<string> {
  const link = await call(account.testKey, 'POST', '/v1/payment-links', {
    type: 'recurring',
    amount: 1000,
    currency: 'USD',
    recurring: { interval: 'month' },
  });
  expect((await payPage(platform, `/pay/${link.body.id}`, '4242424242424242')).status).toBe(200);
  const payments = await call(account.testKey, 'GET', `/v1/transactions?payment_link=${link.body.id}`);
  return payments.body.data[0].mandate;
}

const keys = new Map<string, string>();

/**
 * Disputes have no create operation: a processor opens them, and in test mode the sandbox's card
 * 4000 0000 0000 0259, whose payment is disputed at once (a sandbox dispute, which the test
 * helper POST /v1/disputes/{id}/test-helpers/update can move).
 */
async function sandboxDispute(): Promise<string> {
  const payment = await platform.api(account.testKey, 'POST', '/v1/transactions/test-helpers/payments', {
    amount: 1000,
    currency: 'USD',
    card_number: '4000000000000259',
  });
  expect(payment.status).toBe(200);
  const list = await platform.api(account.testKey, 'GET', `/v1/disputes?transaction=${payment.body.id}`);
  return list.body.data[0].id;
}

/** A test-mode key of `account` (cached by kind and scopes). */
async function keyFor(accountId: string, kind: 'secret' | 'restricted', scopes?: string[]): Promise<string> {
  const cacheKey = `${accountId}:${kind}:${scopes?.join(',')}`;
  const cached = keys.get(cacheKey);
  if (cached) return cached;
  const created = await platform.admin('POST', `/admin/v1/accounts/${accountId}/keys`, {
    mode: 'test',
    kind,
    ...(scopes ? { scopes } : {}),
  });
  expect(created.status).toBe(200);
  keys.set(cacheKey, created.body.secret);
  return created.body.secret;
}

beforeAll(async () => {
  platform = await startPlatform();
  const response = await platform.api(undefined, 'GET', '/v1/openapi.json');
  expect(response.status).toBe(200);
  doc = response.body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // The document's schemas, addressable as DOC_ID#/components/schemas/<name>.
  ajv.addSchema({ $id: DOC_ID, components: { schemas: doc.components.schemas } });
  operations = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item).map(([method, op]) => {
      const owner = routeOwner(path.split('/')[2] ?? '');
      if (!owner) throw new Error(`${path} has no owner in ROUTE_TABLE`);
      return { method, path, op, owner, label: `${method.toUpperCase()} ${path}` };
    }),
  );
  account = await platform.newAccount(['payments', 'invoicing']);
  if (operations.some((o) => o.label === 'POST /v1/refunds')) {
    const payment = await platform.api(account.testKey, 'POST', '/v1/transactions/test-helpers/payments', {
      amount: 1_000_000,
      currency: 'USD',
      card_number: '4242424242424242',
      // Also stores the card as a mandate: mandates have no create operation of their own.
      save_card: true,
    });
    expect(payment.status).toBe(200);
    refundablePayment = payment.body.id;
  }
  if (operations.some((o) => o.label === 'GET /v1/disputes/{id}')) {
    ids.test.set('disputes', await sandboxDispute());
  }
  // The seller's business profile (its documented example: address, VAT number, support
  // e-mail), which invoices snapshot and e-invoices need.
  const updateAccount = operations.find((o) => o.label === 'POST /v1/account');
  if (updateAccount) {
    const profile = await platform.api(account.testKey, 'POST', '/v1/account', exampleBody(updateAccount));
    expect(profile.status).toBe(200);
  }
  const createCustomer = operations.find((o) => o.label === 'POST /v1/customers');
  if (createCustomer) {
    for (const [mode, key] of [
      ['test', account.testKey],
      ['live', account.liveKey],
    ] as const) {
      const customer = await platform.api(key, 'POST', '/v1/customers', exampleBody(createCustomer));
      expect(customer.status).toBe(200);
      customers[mode] = customer.body.id;
    }
  }
});

afterAll(async () => {
  await platform?.stop();
});

describe('the OpenAPI document', () => {
  it('is served without a key, as OpenAPI 3.1 with the bearer scheme and global security', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Paygrid');
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ ApiKey: [] }]);
    expect(doc.components.schemas.ErrorEnvelope.properties.error.properties.code.enum.length).toBeGreaterThan(
      0,
    );
    expect(operations.length).toBeGreaterThan(0);
  });

  it('lists exactly the /v1 routes the services serve', async () => {
    const services = [...new Set(ROUTE_TABLE.map((r) => r.service))] as ServiceName[];
    const served: string[] = [];
    for (const service of services) {
      const fragment = await platform.internal(service, '/openapi.json');
      expect({ service, status: fragment.status }).toEqual({ service, status: 200 });
      served.push(
        ...fragment.body['x-registered-routes'].filter((r: string) => r.split(' ')[1].startsWith('/v1/')),
      );
    }
    expect(operations.map((o) => o.label).sort()).toEqual(served.sort());
    expect(JSON.stringify(doc)).not.toContain('x-registered-routes');
  });

  it('gives every operation an id, a scope, the groupings that reach it and documented errors', () => {
    const operationIds = operations.map((o) => o.op.operationId);
    expect(new Set(operationIds).size).toBe(operationIds.length);
    for (const op of operations) {
      const [resource, access] = String(op.op['x-required-scope']).split(':');
      expect({ op: op.label, resource, read: access === 'read' || access === 'write' }).toEqual({
        op: op.label,
        resource: op.owner.resource,
        read: true,
      });
      expect({ op: op.label, groupings: op.op['x-groupings'] }).toEqual({
        op: op.label,
        groupings: GROUPINGS.filter((g) => groupingAllows(op.owner, [g], op.method.toUpperCase())),
      });
      for (const status of ['401', '403', '429']) expect(Object.keys(op.op.responses)).toContain(status);
      if (requestBody(op)) expect(resolve(requestBody(op)).additionalProperties).toBe(false);
    }
  });

  it('serves a human reference at /docs that needs nothing from elsewhere', async () => {
    const page = await platform.api(undefined, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = String(page.body);
    for (const op of operations) expect(html).toContain(op.op.operationId);
    expect(html).not.toMatch(/<script|<link|src=|href="https?:/i);
  });
});

describe('every operation', () => {
  it('answers the happy call with the documented status and response schema', async () => {
    for (const op of operations) {
      if (isAction(op) || PREPARE[op.label]) ids.test.delete(op.owner.prefix);
      if (op.label === MANDATE_CHARGE) ids.test.set(op.owner.prefix, await recurringMandate());
      const path = await pathFor(op, 'test', account.testKey);
      for (const step of PREPARE[op.label] ?? []) {
        const object = path.split('/').slice(0, 4).join('/');
        const prepared = await call(account.testKey, 'POST', `${object}/${step}`);
        expect({ op: op.label, step, status: prepared.status }).toEqual({ op: op.label, step, status: 200 });
      }
      const [, success] = Object.entries(op.op.responses).find(([s]) => s.startsWith('2')) as [string, any];
      if (success.content['text/event-stream']) {
        // A stream does not end: its status and media type, then the client leaves.
        const leave = new AbortController();
        const stream = await fetch(`${platform.url}${path}`, {
          headers: { authorization: `Bearer ${account.testKey}` },
          signal: leave.signal,
        });
        leave.abort();
        expect({ op: op.label, status: stream.status, type: stream.headers.get('content-type') }).toEqual({
          op: op.label,
          status: 200,
          type: 'text/event-stream; charset=utf-8',
        });
        continue;
      }
      // The receipt is issued moments after payment.succeeded: wait for it as a client would.
      if (op.label === RECEIPT)
        await eventually(async () =>
          (await call(account.testKey, 'GET', path)).status === 200 ? true : undefined,
        );
      const response = await call(account.testKey, op.method.toUpperCase(), path, exampleBody(op));
      // A deleted object is gone, an action's object is spent: the next operation creates another.
      if (op.method === 'delete' || isAction(op) || PREPARE[op.label]) ids.test.delete(op.owner.prefix);
      const [status, documented] = Object.entries(op.op.responses).find(([s]) => s.startsWith('2')) as [
        string,
        any,
      ];
      expect({ op: op.label, status: response.status }).toEqual({ op: op.label, status: Number(status) });
      const [media] = Object.keys(documented.content);
      if (media !== 'application/json') {
        // A document (e.g. a PDF): the media type is what the operation promises.
        expect({ op: op.label, type: response.headers.get('content-type') }).toEqual({
          op: op.label,
          type: media,
        });
        continue;
      }
      const schema = documented.content['application/json'].schema;
      expect({ op: op.label, problems: validate(schema, response.body) }).toEqual({
        op: op.label,
        problems: [],
      });
    }
  });

  it('without a key: 401 authentication_required', async () => {
    for (const op of operations) {
      const response = await call(
        undefined,
        op.method.toUpperCase(),
        op.path.replace('{id}', 'mer_00000000'),
        exampleBody(op),
      );
      expectError(op, response, 401, 'authentication_required');
    }
  });

  it('with a revoked key: 401 invalid_api_key', async () => {
    const created = await platform.admin('POST', `/admin/v1/accounts/${account.id}/keys`, {
      mode: 'test',
      kind: 'secret',
    });
    const revoked = await platform.admin('POST', `/admin/v1/keys/${created.body.id}/revoke`);
    expect(revoked.status).toBe(200);
    // Revocation reaches every gateway within a second (docs/api.md §2).
    await eventually(async () =>
      (await call(created.body.secret, 'GET', '/v1/events')).status === 401 ? true : undefined,
    );
    for (const op of operations) {
      const path = await pathFor(op, 'test', account.testKey);
      const response = await call(created.body.secret, op.method.toUpperCase(), path, exampleBody(op));
      expectError(op, response, 401, 'invalid_api_key');
    }
  });

  it("on another mode's or another account's object: 404 resource_missing", async () => {
    const other = await platform.newAccount(['payments', 'invoicing']);
    const withId = operations.filter(hasId);
    for (const op of withId) {
      const live = await pathFor(op, 'live', account.liveKey);
      expectError(
        op,
        await call(account.testKey, op.method.toUpperCase(), live, exampleBody(op)),
        404,
        'resource_missing',
      );
      const test = await pathFor(op, 'test', account.testKey);
      expectError(
        op,
        await call(account.liveKey, op.method.toUpperCase(), test, exampleBody(op)),
        404,
        'resource_missing',
      );
      expectError(
        op,
        await call(other.testKey, op.method.toUpperCase(), test, exampleBody(op)),
        404,
        'resource_missing',
      );
    }
    expect(withId.length).toBeGreaterThan(0);
  });

  it('with a key that lacks the scope: 403 insufficient_scope naming it', async () => {
    for (const op of operations) {
      const scope: string = op.op['x-required-scope'];
      const [resource, access] = scope.split(':');
      // Write needs more than read; read needs more than another resource's write.
      const otherScope =
        access === 'write' ? `${resource}:read` : `${SCOPE_RESOURCES.find((r) => r !== resource)}:write`;
      const key = await keyFor(account.id, 'restricted', [otherScope]);
      const path = await pathFor(op, 'test', account.testKey);
      const response = await call(key, op.method.toUpperCase(), path, exampleBody(op));
      expectError(op, response, 403, 'insufficient_scope');
      expect(response.body.error.message).toContain(scope);
    }
  });

  it('from an account without the grouping: 403 grouping_not_enabled', async () => {
    const single = {
      payments: await platform.newAccount(['payments']),
      invoicing: await platform.newAccount(['invoicing']),
    };
    const skipped = new Set<string>();
    for (const op of operations) {
      const lacking = GROUPINGS.filter((g) => !groupingAllows(op.owner, [g], op.method.toUpperCase()));
      if (lacking.length === 0) skipped.add(op.owner.prefix);
      for (const grouping of lacking) {
        const response = await call(
          single[grouping].testKey,
          op.method.toUpperCase(),
          op.path.replace('{id}', 'mer_00000000'),
          exampleBody(op),
        );
        expectError(op, response, 403, 'grouping_not_enabled');
      }
    }
    // Only what every grouping reaches is skipped: the prefixes open to both groupings.
    const documented = new Set(operations.map((o) => o.owner.prefix));
    const openToAll = ROUTE_TABLE.filter((r) => GROUPINGS.every((g) => r.groupings.includes(g)))
      .map((r) => r.prefix)
      .filter((prefix) => documented.has(prefix));
    expect([...skipped].sort()).toEqual(openToAll.sort());
  });

  it('with an unknown field: 400 parameter_unknown naming it (body for POST, query for lists)', async () => {
    let checked = 0;
    for (const op of operations) {
      const path = await pathFor(op, 'test', account.testKey);
      let response: ApiResponse;
      if (requestBody(op)) {
        response = await call(account.testKey, op.method.toUpperCase(), path, {
          ...(exampleBody(op) as object),
          [UNKNOWN]: 'x',
        });
      } else if (hasQuery(op)) {
        response = await call(account.testKey, op.method.toUpperCase(), `${path}?${UNKNOWN}=x`);
      } else {
        // GET or DELETE of one object: no body and no query parameters to add one to.
        // Or an action on one object that takes no parameters (POST /v1/webhooks/{id}/test).
        // The account's profile is one object without an id (GET /v1/account, DELETE its logo).
        const oneObject =
          (op.method === 'get' || op.method === 'delete' || (op.method === 'post' && !requestBody(op))) &&
          (hasId(op) || op.owner.prefix === 'account');
        expect({ op: op.label, oneObject }).toEqual({ op: op.label, oneObject: true });
        continue;
      }
      expectError(op, response, 400, 'parameter_unknown');
      expect(response.body.error.param).toBe(UNKNOWN);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });
});
