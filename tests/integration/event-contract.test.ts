// The served OpenAPI document against the server's own lists (issue 16 item 1): the event
// types of the `Event` union and the `webhooks` section are the catalogue the services emit
// (every type literal in their sources, found by a scan), the scopes it names are the ones the
// gateway grants, and the events a scenario really produces validate against their typed
// schema (object and previous_attributes), in both run modes.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ALL_SCOPES, PAYMENTS_COMMAND_TYPES, PUBLIC_EVENT_TYPES } from '@paygrid/contracts';
import { scopesForGroupings } from '../../apps/gateway/src/accounts/accounts.service';
import { allEvents } from '../support/events';
import { eventually, ROOT, usePlatform } from '../support/platform';

const suite = usePlatform();
const DOC_ID = 'https://paygrid.invalid/openapi.json';

/**
 * Every `'<object>.<verb>'` string literal in the services' sources (tests excluded), outside
 * connectors/: a processor's own event names (Stripe's `refund.updated`) are its vocabulary,
 * mapped there onto ours, not types we emit.
 */
function typeLiteralsInSources(): Set<string> {
  const found = new Set<string>();
  const objects =
    'payment_link|payment|refund|dispute|mandate|merchant|invoice|subscription|estimate|customer|account|webhook_endpoint';
  const literal = new RegExp(`'((?:${objects})\\.[a-z_.]+)'`, 'g');
  for (const app of ['payments', 'invoicing', 'webhooks']) {
    const dir = join(ROOT, 'apps', app, 'src');
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.endsWith('.spec.ts') || file.startsWith('connectors/')) continue;
      for (const match of readFileSync(join(dir, file), 'utf8').matchAll(literal)) found.add(match[1]);
    }
  }
  return found;
}

let doc: any;

beforeAll(async () => {
  doc = (await suite.platform.api(undefined, 'GET', '/v1/openapi.json')).body;
});

describe('the event types of the document', () => {
  it('are the catalogue, which is exactly what the services emit (the test event included)', () => {
    const emitted = [...typeLiteralsInSources()].filter(
      (type) => !(PAYMENTS_COMMAND_TYPES as readonly string[]).includes(type),
    );
    expect(emitted.sort()).toEqual([...PUBLIC_EVENT_TYPES]);
    const union = doc.components.schemas.Event.oneOf.map(
      (ref: { $ref: string }) =>
        doc.components.schemas[ref.$ref.split('/').pop() ?? ''].properties.type.const,
    );
    expect(union).toEqual([...PUBLIC_EVENT_TYPES]);
    expect(Object.keys(doc.webhooks)).toEqual([...PUBLIC_EVENT_TYPES]);
    expect(Object.keys(doc.components.schemas.Event.discriminator.mapping)).toEqual([...PUBLIC_EVENT_TYPES]);
  });
});

describe('the scopes of the document', () => {
  it('are scopes the gateway grants, and each tag names only scopes its operations require', () => {
    const granted = new Set<string>(scopesForGroupings(['payments', 'invoicing']));
    const required = new Map<string, Set<string>>();
    for (const item of Object.values<any>(doc.paths))
      for (const operation of Object.values<any>(item)) {
        expect(granted.has(operation['x-required-scope'])).toBe(true);
        for (const tag of operation.tags)
          (required.get(tag) ?? required.set(tag, new Set()).get(tag))?.add(operation['x-required-scope']);
      }
    for (const tag of doc.tags) {
      const named = [...String(tag.description).matchAll(/`([a-z_]+:(?:read|write))`/g)].map((m) => m[1]);
      expect({ tag: tag.name, scopes: named.sort() }).toEqual({
        tag: tag.name,
        scopes: [...(required.get(tag.name) ?? [])].sort(),
      });
      named.forEach((scope) => expect(ALL_SCOPES).toContain(scope));
    }
    expect(JSON.stringify(doc)).not.toContain('events:write');
  });
});

describe('the events a scenario produces', () => {
  it('validate against their typed schema in the document', async () => {
    const api = suite.api;
    const merchant = await api('POST', '/v1/merchants', {
      business_name: 'Contract Books',
      email: 'owner@contract.test',
      country: 'DE',
      default_currency: 'EUR',
      business_type: 'company',
    });
    expect(merchant.status).toBe(200);
    const link = await api('POST', '/v1/payment-links', {
      merchant: merchant.body.id,
      currency: 'EUR',
      amount: 1500,
      metadata: { order: '1' },
    });
    expect(link.status).toBe(200);
    expect(
      (
        await api('POST', `/v1/payment-links/${link.body.id}`, {
          metadata: { order: '2' },
          description: 'Two',
        })
      ).status,
    ).toBe(200);
    const payment = await api('POST', '/v1/transactions/test-helpers/payments', {
      amount: 5000,
      currency: 'EUR',
      card_number: '4242424242424242',
      save_card: true,
    });
    expect(payment.status).toBe(200);
    expect((await api('POST', '/v1/refunds', { transaction: payment.body.id, amount: 100 })).status).toBe(
      200,
    );
    const customer = await api('POST', '/v1/customers', { name: 'Ada', email: 'ada@contract.test' });
    expect(customer.status).toBe(200);
    expect((await api('POST', `/v1/customers/${customer.body.id}`, { name: 'Ada L.' })).status).toBe(200);

    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: DOC_ID, components: { schemas: doc.components.schemas } });
    const check = ajv.compile({ $ref: `${DOC_ID}#/components/schemas/Event` });
    const events = await eventually(async () => {
      const all = await allEvents(suite.platform, suite.account.testKey);
      const types = new Set(all.map((e) => e.type));
      const wanted = ['payment_link.updated', 'payment.succeeded', 'mandate.created', 'refund.created'];
      return wanted.every((t) => types.has(t)) && types.has('customer.updated') ? all : undefined;
    });
    for (const event of events)
      expect({ type: event.type, valid: check(event), errors: check.errors }).toEqual({
        type: event.type,
        valid: true,
        errors: null,
      });
    const updated = events.find((e) => e.type === 'payment_link.updated');
    expect(updated.data.previous_attributes).toEqual({ metadata: { order: '1' }, description: null });
  });
});
