// What the route matrix's case modules share: the OpenAPI document the running platform
// serves (loaded once by tests/integration/route-matrix.test.ts), an Ajv that validates
// answers against its schemas, and the fixtures every operation's calls need (an account, a
// refundable payment, a dispute, a customer per mode, an object of each resource, keys).

import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { routeOwner, type RouteOwner } from '@paygrid/contracts';
import { eventually, type ApiResponse, type Platform } from '../../support/platform';
import { payPage } from '../../support/pages';

export interface Operation {
  method: string;
  path: string;
  op: any;
  owner: RouteOwner;
  label: string;
}

export const DOC_ID = 'https://paygrid.invalid/v1/openapi.json';
export const UNKNOWN = 'paygrid_unknown_field';

export const requestBody = (op: Operation) => op.op.requestBody?.content?.['application/json']?.schema;
export const hasId = (op: Operation) => op.path.includes('{id}');

/**
 * Actions on one object (`POST /v1/<resource>/{id}/<action>`) change its state, so each
 * happy call gets a fresh object (the create example's state), first moved by the actions
 * listed here when it needs another state.
 */
export const isAction = (op: Operation) => op.method === 'post' && /\{id\}\/[a-z-]+$/.test(op.path);
export const PREPARE: Record<string, string[]> = {
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
export const TEST_MODE_ONLY: Record<string, string> = {
  transactions: 'txn',
  refunds: 're',
  disputes: 'dp',
  mandates: 'mdt',
  'test-clocks': 'clock',
};

export const RECEIPT = 'GET /v1/transactions/{id}/receipt';

/**
 * The sandbox's mandate test helper runs a recurring mandate's schedule: its happy call needs a
 * mandate made by a recurring link's hosted checkout (the test helper's payments save on_demand
 * ones, which have no schedule).
 */
export const MANDATE_CHARGE = 'POST /v1/mandates/{id}/test-helpers/charge';

/** The loaded document, its operations and the suite's fixtures; the cases read it when they run. */
export type RouteMatrix = Awaited<ReturnType<typeof loadRouteMatrix>>;

/** Reads the platform's OpenAPI document and creates the fixtures the calls need (beforeAll). */
export async function loadRouteMatrix(platform: Platform) {
  const response = await platform.api(undefined, 'GET', '/v1/openapi.json');
  expect(response.status).toBe(200);
  const doc = response.body;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // The document's schemas, addressable as DOC_ID#/components/schemas/<name>.
  ajv.addSchema({ $id: DOC_ID, components: { schemas: doc.components.schemas } });
  const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
    Object.entries(item).map(([method, op]) => {
      const owner = routeOwner(path.split('/')[2] ?? '');
      if (!owner) throw new Error(`${path} has no owner in ROUTE_TABLE`);
      return { method, path, op, owner, label: `${method.toUpperCase()} ${path}` };
    }),
  );
  const account = await platform.newAccount(['payments', 'invoicing']);
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

  const hasQuery = (op: Operation) => (op.op.parameters ?? []).some((p: any) => resolve(p).in === 'query');

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

  /** A mandate of a recurring link's hosted checkout, for the happy call of MANDATE_CHARGE. */
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
  async function keyFor(
    accountId: string,
    kind: 'secret' | 'restricted',
    scopes?: string[],
  ): Promise<string> {
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

  // The fixtures the calls name: a refundable payment, a dispute, the profile, the customers.
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

  return {
    platform,
    doc,
    operations,
    account,
    ids,
    call,
    resolve,
    validate,
    expectError,
    hasQuery,
    exampleBody,
    pathFor,
    recurringMandate,
    keyFor,
  };
}
