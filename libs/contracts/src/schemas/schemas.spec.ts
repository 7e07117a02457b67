import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ERROR_CATALOGUE, ERROR_CODES } from '../errors';
import { EVENT_OBJECTS, PUBLIC_EVENT_TYPES } from '../events';
import {
  API_SCHEMAS,
  ERROR_RESPONSE_NAMES,
  errorResponseRef,
  eventSchemaName,
  type JsonSchema,
} from './index';

const ID = 'https://paygrid.invalid/schemas.json';

function ajv() {
  // Strict: the schemas may use only JSON Schema 2020-12 keywords (the wrapper aside).
  const instance = new Ajv2020({ allErrors: true });
  instance.addKeyword('components');
  // OpenAPI's discriminator (with a mapping, which Ajv's own support refuses): oneOf decides.
  instance.addKeyword('discriminator');
  addFormats(instance);
  instance.addSchema({ $id: ID, components: { schemas: API_SCHEMAS } });
  return instance;
}

// One instance for the file: Ajv compiles each referenced schema once and reuses it (a new
// instance per schema took 5 s for the first test alone).
const shared = ajv();
const validatorFor = (name: string) => shared.compile({ $ref: `${ID}#/components/schemas/${name}` });

describe('API_SCHEMAS', () => {
  it('compile, and every $ref they use resolves', () => {
    for (const name of Object.keys(API_SCHEMAS)) expect(() => validatorFor(name)).not.toThrow();
  });

  it('accept their own examples', () => {
    const walk = (schema: JsonSchema, path: string, found: [string, JsonSchema][]) => {
      if (schema.examples) found.push([path, schema]);
      for (const [name, property] of Object.entries(schema.properties ?? {}))
        walk(property, `${path}.${name}`, found);
      return found;
    };
    const instance = ajv();
    for (const [name, schema] of Object.entries(API_SCHEMAS)) {
      for (const [path, withExamples] of walk(schema, name, [])) {
        const { examples, ...rest } = withExamples;
        const check = instance.compile({ ...rest, $id: `${ID}/${path}` });
        for (const example of examples ?? [])
          expect({ path, ok: check(example), errors: check.errors }).toMatchObject({ path, ok: true });
      }
    }
  });

  it('forbid properties the objects do not have', () => {
    const check = validatorFor('ErrorEnvelope');
    const error = { type: 'api_error', code: 'internal_error', message: 'x', request_id: 'req_12345678' };
    expect(check({ error })).toBe(true);
    expect(check({ error: { ...error, stack: 'at ...' } })).toBe(false);
    expect(check({ error, debug: true })).toBe(false);
  });
});

describe('the error envelope schema', () => {
  it('allows exactly the catalogue codes and types', () => {
    const error = (API_SCHEMAS.ErrorEnvelope.properties ?? {}).error;
    expect(error.properties?.code.enum).toEqual(ERROR_CODES);
    expect([...(error.properties?.type.enum ?? [])].sort()).toEqual(
      [...new Set(Object.values(ERROR_CATALOGUE).map((s) => s.type))].sort(),
    );
  });

  it('has a shared response for every status in the catalogue', () => {
    for (const code of ERROR_CODES) {
      const status = ERROR_CATALOGUE[code].status;
      expect(ERROR_RESPONSE_NAMES[status]).toBeDefined();
      expect(errorResponseRef(status).$ref).toBe(`#/components/responses/${ERROR_RESPONSE_NAMES[status]}`);
    }
    expect(() => errorResponseRef(418)).toThrow();
  });
});

describe('the event schemas', () => {
  const webhookEndpoint = {
    id: 'we_4fQk2nT8bW1xZc9LmP0aRs7e',
    object: 'webhook_endpoint',
    livemode: false,
    url: 'https://example.com/hooks',
    description: null,
    enabled_events: ['*'],
    status: 'disabled',
    disabled_reason: 'every delivery failed for 5 days',
    metadata: {},
    created_at: '2026-01-15T12:00:00.000Z',
    updated_at: '2026-01-15T12:00:00.000Z',
  };
  const event = (type: string, data: Record<string, unknown>) => ({
    id: 'evt_4fQk2nT8bW1xZc9LmP0aRs7e',
    object: 'event',
    type,
    created_at: '2026-01-15T12:00:00.000Z',
    livemode: false,
    account: 'acct_4fQk2nT8bW1xZc9LmP0aRs7e',
    data,
  });

  it('has one branch per event type of the catalogue, test event included, discriminated on type', () => {
    const branches = (API_SCHEMAS.Event.oneOf as JsonSchema[]).map((ref) =>
      String(ref.$ref).split('/').pop(),
    );
    expect(branches).toEqual(PUBLIC_EVENT_TYPES.map(eventSchemaName));
    expect(PUBLIC_EVENT_TYPES).toContain('webhook_endpoint.test');
    expect(API_SCHEMAS.Event.discriminator).toEqual({
      propertyName: 'type',
      mapping: Object.fromEntries(
        PUBLIC_EVENT_TYPES.map((type) => [type, `#/components/schemas/${eventSchemaName(type)}`]),
      ),
    });
    for (const type of PUBLIC_EVENT_TYPES) {
      const schema = API_SCHEMAS[eventSchemaName(type)];
      expect(schema.properties?.type).toEqual({ type: 'string', const: type });
      const data = schema.properties?.data.properties ?? {};
      expect(data.object.$ref).toBe(`#/components/schemas/${EVENT_OBJECTS[type].object}`);
      expect('previous_attributes' in data).toBe(EVENT_OBJECTS[type].previous);
    }
  });

  it('accept an event whose object is the one of its type, and refuse another object or type', () => {
    const check = validatorFor('Event');
    expect(check(event('webhook_endpoint.disabled', { object: webhookEndpoint }))).toBe(true);
    expect(check(event('webhook_endpoint.test', { object: webhookEndpoint }))).toBe(true);
    expect(check(event('payment.succeeded', { object: webhookEndpoint }))).toBe(false);
    expect(check(event('webhook_endpoint.exploded', { object: webhookEndpoint }))).toBe(false);
    const { url: _url, ...withoutUrl } = webhookEndpoint;
    expect(check(event('webhook_endpoint.disabled', { object: withoutUrl }))).toBe(false);
  });

  it('type previous_attributes as a partial object, at any depth, and only where the type has them', () => {
    const check = validatorFor('Event');
    const previous = { onboarding: { status: 'in_review' } };
    // A merchant object is not built here: the partial schema alone is checked.
    expect(validatorFor('MerchantPreviousAttributes')(previous)).toBe(true);
    expect(validatorFor('MerchantPreviousAttributes')({ no_such_field: 1 })).toBe(false);
    expect(validatorFor('MerchantPreviousAttributes')({ onboarding: { status: 42 } })).toBe(false);
    expect(
      check(
        event('webhook_endpoint.disabled', {
          object: webhookEndpoint,
          previous_attributes: { status: 'enabled' },
        }),
      ),
    ).toBe(false);
  });
});
