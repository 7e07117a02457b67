// `GET /v1/openapi.json`: the services' fragments (fetched through the Upstream, like any
// forwarded request) merged with the gateway's parts. Only routes the services really serve
// appear, so a route not built yet is never documented.

import {
  eventSchemaName,
  GROUPINGS,
  groupingAllows,
  PUBLIC_EVENT_TYPES,
  ROUTE_TABLE,
  routeOwner,
  routeService,
  type JsonSchema,
  type ServiceName,
} from '@paygrid/contracts';
import {
  ApiError,
  HTTP_METHODS,
  type OpenApiFragment,
  type LinkObject,
  type OperationObject,
  type ParameterObject,
  type PathItemObject,
  type ReferenceObject,
  type ResponseObject,
  type HeaderObject,
} from '@paygrid/platform';
import type { Upstream } from '../routing/upstream';
import {
  API_DESCRIPTION,
  ERROR_ENVELOPE,
  errorResponsesFor,
  HEADERS,
  IDEMPOTENCY_KEY_PARAMETER,
  PARAMETERS,
  SECURITY_SCHEME,
  SECURITY_SCHEMES,
  successHeaders,
} from './openapi.components';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
    contact: { name: string; url: string };
  };
  servers: { url: string; description: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItemObject>;
  /** OpenAPI 3.1: what this installation POSTs to webhook endpoints, one entry per event type. */
  webhooks: Record<string, { post: WebhookOperationObject }>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    headers: Record<string, HeaderObject>;
    parameters: Record<string, ParameterObject>;
    securitySchemes: typeof SECURITY_SCHEMES;
  };
}

/** A webhook: what the installation sends, so no scope and no API key. */
export type WebhookOperationObject = Omit<OperationObject, 'x-required-scope'> & {
  security: Record<string, string[]>[];
};

/** Every service that owns a /v1 prefix. */
export const API_SERVICES: readonly ServiceName[] = [...new Set(ROUTE_TABLE.map((r) => r.service))];

/** JSON with sorted keys: equal schemas compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

function errorStatusesOf(operation: OperationObject): number[] {
  return Object.entries(operation.responses)
    .filter(([, response]) => '$ref' in response)
    .map(([status]) => Number(status));
}

/** Adds what the gateway does to an operation: groupings, idempotency, response headers. */
function decorate(path: string, method: string, operation: OperationObject): OperationObject {
  const owner = routeOwner(path.split('/')[2] ?? '');
  if (!owner) throw new Error(`${method.toUpperCase()} ${path}: no /v1 prefix in ROUTE_TABLE routes it.`);
  const upper = method.toUpperCase();
  const responses: OperationObject['responses'] = {};
  for (const [status, response] of Object.entries(operation.responses)) {
    responses[status] =
      '$ref' in response
        ? response
        : { ...response, headers: { ...successHeaders(method), ...response.headers } };
  }
  const idempotency: ReferenceObject[] =
    method === 'post' ? [{ $ref: `#/components/parameters/${IDEMPOTENCY_KEY_PARAMETER}` }] : [];
  const parameters = [...(operation.parameters ?? []), ...idempotency];
  return {
    ...operation,
    'x-groupings': GROUPINGS.filter((g) => groupingAllows(owner, [g], upper)),
    ...(parameters.length ? { parameters } : {}),
    responses,
  };
}

/**
 * OpenAPI links from each create operation (`POST /v1/<resource>`) to every operation on
 * `/v1/<resource>/{id}...`, feeding `{id}` from the created object's `id`: a stateful client
 * (Schemathesis' stateful phase, an SDK's docs) learns which answer leads where, from the
 * routes themselves rather than a hand-kept list.
 */
function addLinks(paths: Record<string, PathItemObject>): void {
  for (const [path, item] of Object.entries(paths)) {
    const created = item.post?.responses['200'];
    if (!created || '$ref' in created || !/^\/v1\/[a-z-]+$/.test(path)) continue;
    const links: Record<string, LinkObject> = {};
    for (const [target, targetItem] of Object.entries(paths)) {
      if (!target.startsWith(`${path}/{id}`) || /\{(?!id\})\w+\}/.test(target)) continue;
      for (const method of HTTP_METHODS) {
        const operation = targetItem[method];
        if (!operation) continue;
        links[operation.operationId] = {
          operationId: operation.operationId,
          parameters: { id: '$response.body#/id' },
          description: `${method.toUpperCase()} ${target} with the id of the object created.`,
        };
      }
    }
    if (Object.keys(links).length) created.links = links;
  }
}

/** The Standard Webhooks headers every delivery carries (apps/webhooks/src/delivery/signing.ts). */
const WEBHOOK_HEADERS: ParameterObject[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id: the same on every attempt, so a receiver can drop duplicates.',
    schema: { type: 'string', pattern: '^evt_[0-9A-Za-z]{8,64}$' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt; refuse one more than 5 minutes off.',
    schema: { type: 'string', pattern: '^[0-9]{1,12}$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, one per active secret, space-separated (Standard Webhooks).',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
  },
];

/**
 * The `webhooks` section: one POST per event type whose schema the document has, with the
 * typed body and the signature headers, so a generator types each receiver's payload.
 */
function webhooksOf(schemas: Record<string, JsonSchema>): OpenApiDocument['webhooks'] {
  const webhooks: OpenApiDocument['webhooks'] = {};
  for (const type of PUBLIC_EVENT_TYPES) {
    const name = eventSchemaName(type);
    if (!schemas[name]) continue;
    webhooks[type] = {
      post: {
        operationId: `webhooks.${type}`,
        summary: `The \`${type}\` event`,
        description: `Sent, signed, to every enabled endpoint subscribed to \`${type}\` (docs/api.md §7). Any 2xx answer acknowledges it; anything else is retried.`,
        tags: ['Events'],
        security: [],
        parameters: WEBHOOK_HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: { '200': { description: 'Received (any 2xx status).' } },
      },
    };
  }
  return webhooks;
}

/**
 * One document from the services' fragments. Refuses (throws) what would make it lie: the
 * same operation from two services, a prefix served by a service the gateway does not route
 * it to, or two different schemas under one name.
 */
export function mergeFragments(
  fragments: readonly OpenApiFragment[],
  options: { publicBaseUrl: string; version?: string },
): OpenApiDocument {
  const paths: Record<string, PathItemObject> = {};
  const schemas: Record<string, JsonSchema> = { ...ERROR_ENVELOPE };
  const statuses = new Set<number>();
  const tags = new Map<string, { groupings: Set<string>; scopes: Set<string> }>();
  for (const fragment of fragments) {
    for (const [path, item] of Object.entries(fragment.paths)) {
      const owner = routeOwner(path.split('/')[2] ?? '');
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (!operation) continue;
        // The path's prefix owner, unless the gateway routes this one path elsewhere (ROUTE_OVERRIDES).
        const routedTo = owner && routeService(owner, method.toUpperCase(), path);
        if (!owner || routedTo !== fragment.info.title)
          throw new Error(`${fragment.info.title} serves ${path}, which the gateway routes to ${routedTo}.`);
        const merged = (paths[path] ??= {});
        if (merged[method]) throw new Error(`${method.toUpperCase()} ${path} comes from two services.`);
        merged[method] = decorate(path, method, operation);
        errorStatusesOf(operation).forEach((s) => statuses.add(s));
        // Only the scopes the tag's operations require: a scope that no route checks (there
        // is no events:write) is not offered to the reader.
        for (const tag of operation.tags) {
          const entry = tags.get(tag) ?? { groupings: new Set<string>(), scopes: new Set<string>() };
          owner.groupings.forEach((g) => entry.groupings.add(g));
          entry.scopes.add(operation['x-required-scope']);
          tags.set(tag, entry);
        }
      }
    }
    for (const [name, schema] of Object.entries(fragment.components.schemas)) {
      if (schemas[name] && canonical(schemas[name]) !== canonical(schema))
        throw new Error(`Two different schemas are named ${name}.`);
      schemas[name] = schema;
    }
  }
  addLinks(paths);
  const base = options.publicBaseUrl.replace(/\/+$/, '');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Paygrid',
      version: options.version ?? 'v1',
      description: API_DESCRIPTION,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      contact: { name: 'The operator of this installation', url: `${base}/docs` },
    },
    servers: [{ url: base, description: 'This installation (test and live keys share it).' }],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: [...tags]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, { groupings, scopes }]) => ({
        name,
        description: `Needs the ${[...groupings].join(' or ')} grouping and the ${[...scopes]
          .sort()
          .map((scope) => `\`${scope}\``)
          .join(' or ')} scope (write implies read).`,
      })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    webhooks: webhooksOf(schemas),
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      responses: errorResponsesFor(statuses),
      headers: HEADERS,
      parameters: PARAMETERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

/** Fetches and merges the fragments once; a failure is not cached, so the next call retries. */
export class OpenApiDocumentService {
  private document?: Promise<OpenApiDocument>;

  constructor(
    private readonly upstream: Upstream,
    private readonly publicBaseUrl: string,
    /** The services of this installation: the document describes only what it serves. */
    private readonly services: readonly ServiceName[] = API_SERVICES,
  ) {}

  get(): Promise<OpenApiDocument> {
    this.document ??= this.build().catch((error: unknown) => {
      this.document = undefined;
      throw error;
    });
    return this.document;
  }

  private async build(): Promise<OpenApiDocument> {
    const installed = API_SERVICES.filter((service) => this.services.includes(service));
    const fragments = await Promise.all(installed.map((service) => this.fragment(service)));
    return mergeFragments(fragments, { publicBaseUrl: this.publicBaseUrl });
  }

  private async fragment(service: ServiceName): Promise<OpenApiFragment> {
    const response = await this.upstream.request(service, {
      method: 'GET',
      url: '/openapi.json',
      headers: {},
    });
    if (response.status !== 200)
      throw new ApiError(
        'upstream_unavailable',
        `The ${service} service did not describe its API; retry shortly.`,
      );
    return JSON.parse(response.body.toString('utf8')) as OpenApiFragment;
  }
}
