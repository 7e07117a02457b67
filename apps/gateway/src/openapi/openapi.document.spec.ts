import type { OpenApiFragment, OperationObject } from '@paygrid/platform';
import { renderApiReference } from './api-reference.page';
import { mergeFragments } from './openapi.document';

function operation(overrides: Partial<OperationObject> = {}): OperationObject {
  return {
    operationId: 'merchants.list',
    summary: 'List merchants',
    description: 'Newest first.',
    tags: ['Merchants'],
    'x-required-scope': 'merchants:read',
    responses: {
      '200': {
        description: 'A page.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/MerchantList' } } },
      },
      '401': { $ref: '#/components/responses/Unauthorized' },
      '429': { $ref: '#/components/responses/TooManyRequests' },
    },
    ...overrides,
  };
}

function fragment(title: string, paths: OpenApiFragment['paths'], schemas = {}): OpenApiFragment {
  return {
    openapi: '3.1.0',
    info: { title, version: '1' },
    paths,
    components: { schemas },
    'x-registered-routes': ['GET /v1/merchants'],
  };
}

const payments = fragment(
  'payments',
  {
    '/v1/merchants': {
      get: operation(),
      post: operation({ operationId: 'merchants.create', 'x-required-scope': 'merchants:write' }),
    },
  },
  { Merchant: { type: 'object' } },
);
const webhooks = fragment('webhooks', {
  '/v1/events': {
    get: operation({ operationId: 'events.list', tags: ['Events'], 'x-required-scope': 'events:read' }),
  },
});
const merge = (...fragments: OpenApiFragment[]) =>
  mergeFragments(fragments, { publicBaseUrl: 'https://api.example.test/' });

describe('mergeFragments', () => {
  it('joins the services’ paths and adds the gateway’s parts', () => {
    const doc = merge(payments, webhooks, fragment('invoicing', {}));
    expect(Object.keys(doc.paths)).toEqual(['/v1/events', '/v1/merchants']);
    expect(doc.info.title).toBe('Paygrid');
    expect(doc.servers).toEqual([{ url: 'https://api.example.test', description: expect.any(String) }]);
    expect(doc.security).toEqual([{ ApiKey: [] }]);
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.ErrorEnvelope).toBeDefined();
    expect(doc.components.schemas.Merchant).toEqual({ type: 'object' });
    expect(doc.tags.map((t) => t.name)).toEqual(['Events', 'Merchants']);
    expect(JSON.stringify(doc)).not.toContain('x-registered-routes');
  });

  it('links each create operation to the operations on the created object (stateful clients follow them)', () => {
    const withItems = fragment('payments', {
      '/v1/merchants': {
        post: operation({ operationId: 'merchants.create', 'x-required-scope': 'merchants:write' }),
      },
      '/v1/merchants/{id}': {
        get: operation({ operationId: 'merchants.get' }),
        post: operation({ operationId: 'merchants.update', 'x-required-scope': 'merchants:write' }),
      },
      '/v1/merchants/{id}/things/{thing_id}': { get: operation({ operationId: 'merchants.thing' }) },
    });
    const created = merge(withItems).paths['/v1/merchants'].post?.responses['200'] as {
      links?: Record<string, unknown>;
    };
    expect(Object.keys(created.links ?? {}).sort()).toEqual(['merchants.get', 'merchants.update']);
    expect(created.links?.['merchants.get']).toMatchObject({
      operationId: 'merchants.get',
      parameters: { id: '$response.body#/id' },
    });
  });

  it('adds the groupings, Idempotency-Key on POST and the headers of success answers', () => {
    const doc = merge(payments, webhooks);
    const post = doc.paths['/v1/merchants'].post;
    const get = doc.paths['/v1/merchants'].get;
    expect(post?.['x-groupings']).toEqual(['payments']);
    expect(doc.paths['/v1/events'].get?.['x-groupings']).toEqual(['payments', 'invoicing']);
    expect(post?.parameters).toEqual([{ $ref: '#/components/parameters/IdempotencyKey' }]);
    expect(get?.parameters).toBeUndefined();
    expect(Object.keys((post?.responses['200'] as { headers: object }).headers)).toEqual([
      'Request-Id',
      'RateLimit-Policy',
      'RateLimit',
      'Idempotent-Replayed',
    ]);
    expect(Object.keys((get?.responses['200'] as { headers: object }).headers)).not.toContain(
      'Idempotent-Replayed',
    );
  });

  it('defines one response per error status referred to, 429 with Retry-After', () => {
    const { components } = merge(payments);
    expect(Object.keys(components.responses)).toEqual(['Unauthorized', 'TooManyRequests']);
    expect(Object.keys(components.responses.TooManyRequests.headers ?? {})).toContain('Retry-After');
    expect(Object.keys(components.responses.Unauthorized.headers ?? {})).toEqual(['Request-Id']);
    expect(components.responses.Unauthorized.description).toContain('`invalid_api_key`');
    expect(components.responses.Unauthorized.content?.['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorEnvelope',
    });
  });

  it('names in each tag only the scopes its operations require (no events:write)', () => {
    const doc = merge(payments, webhooks);
    const events = doc.tags.find((t) => t.name === 'Events')?.description;
    expect(events).toContain('`events:read`');
    expect(events).not.toContain('events:write');
    expect(doc.tags.find((t) => t.name === 'Merchants')?.description).toContain(
      '`merchants:read` or `merchants:write`',
    );
  });

  it('has a webhooks entry per event type whose schema the services serve, with the signature headers', () => {
    const withEvents = fragment('webhooks', webhooks.paths, {
      PaymentSucceededEvent: { type: 'object' },
      WebhookEndpointTestEvent: { type: 'object' },
    });
    const doc = merge(payments, withEvents);
    expect(Object.keys(doc.webhooks)).toEqual(['payment.succeeded', 'webhook_endpoint.test']);
    const post = doc.webhooks['payment.succeeded'].post;
    expect(post.requestBody?.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PaymentSucceededEvent',
    });
    expect(post.security).toEqual([]);
    expect(post.parameters?.map((p) => ('name' in p ? p.name : p.$ref))).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    expect(merge(payments).webhooks).toEqual({});
  });

  it('refuses what would make the document lie', () => {
    expect(() => merge(payments, payments)).toThrow(/two services/);
    expect(() => merge(payments, fragment('invoicing', {}, { Merchant: { type: 'string' } }))).toThrow(
      /Two different schemas are named Merchant/,
    );
    expect(() => merge(fragment('webhooks', { '/v1/merchants': { get: operation() } }))).toThrow(
      /routes to payments/,
    );
  });
});

describe('renderApiReference', () => {
  it('renders every operation, escapes the text, and loads nothing', () => {
    const doc = merge(
      payments,
      fragment('webhooks', {
        '/v1/events': {
          get: operation({ operationId: 'events.list', tags: ['Events'], summary: '<b>List</b>' }),
        },
      }),
    );
    const html = renderApiReference(doc);
    expect(html).toContain('id="op-merchants-create"');
    expect(html).toContain('id="op-events-list"');
    expect(html).toContain('&lt;b&gt;List&lt;/b&gt;');
    expect(html).not.toContain('<b>List</b>');
    expect(html).not.toMatch(/<script|<link|src=/i);
  });
});
